import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Role } from '../../../server/src/db/schema/enums';
import { hashPassword } from '../../../server/src/lib/password';
import { insertUser, setUserRole } from '../../../server/src/modules/accounts/account.repository';

export interface TestUser {
  id: string;
  userName: string;
  email: string;
  password: string;
}

export interface CreateUserOptions {
  userName?: string;
  email?: string;
  /** Must satisfy the password rules if the test signs in with it. Default: `Passw0rd`. */
  password?: string;
  role?: Role;
  /** E-mail confirmed (the user can sign in). Default: true. */
  confirmed?: boolean;
}

export const DEFAULT_PASSWORD = 'Passw0rd';

/** A unique user name (≤ 15 characters, as the contract allows). */
export function uniqueName(prefix = 'u'): string {
  return `${prefix.slice(0, 5)}${randomBytes(5).toString('hex')}`;
}

/** Inserts a user straight through the repository (no HTTP, no captcha, no rate limit, no mail). */
export async function createUser(app: FastifyInstance, options: CreateUserOptions = {}): Promise<TestUser> {
  const userName = options.userName ?? uniqueName();
  const email = options.email ?? `${userName.toLowerCase()}@example.com`;
  const password = options.password ?? DEFAULT_PASSWORD;
  const row = await insertUser(app.db, {
    userName,
    email,
    passwordHash: await hashPassword(password),
    role: options.role ?? 'User',
    emailConfirmed: options.confirmed ?? true,
  });
  return { id: row.id, userName: row.userName, email: row.email, password };
}

/** Signs in through POST /api/account/login and returns the `Cookie` header value to send back. */
export async function signIn(
  app: FastifyInstance,
  userName: string,
  password: string,
  remoteAddress?: string,
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { userName, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-in of ${userName} failed: ${response.statusCode} ${response.body}`);
  }
  const cookie = response.cookies.find((item) => item.name === 'GZCTF_Token');
  if (!cookie) throw new Error(`sign-in of ${userName} set no GZCTF_Token cookie`);
  return `${cookie.name}=${cookie.value}`;
}

/**
 * A fresh signed-in user of the given role: `inject({ headers: { cookie } })`. A Banned user cannot
 * sign in, so that one is signed in as a User first and banned afterwards (its session stays valid and
 * meets 403 on every non-anonymous route).
 */
export async function asUser(app: FastifyInstance, role: Role = 'User'): Promise<{ user: TestUser; cookie: string }> {
  const user = await createUser(app, { role: role === 'Banned' ? 'User' : role });
  const cookie = await signIn(app, user.userName, user.password);
  if (role === 'Banned') await setUserRole(app.db, user.id, 'Banned');
  return { user, cookie };
}
