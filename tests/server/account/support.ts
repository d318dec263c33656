import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sessions, userTokens, users } from '../../../server/src/db/schema';
import type { AccountPolicy } from '../../../server/src/modules/settings/settings.defaults';

/** The `Cookie` header that sends back what a response set (empty when it set nothing). */
export function cookieFrom(response: LightMyRequestResponse): string {
  return response.cookies
    .filter((cookie) => cookie.value !== '')
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
}

export async function setPolicy(app: FastifyInstance, policy: Partial<AccountPolicy>): Promise<void> {
  await app.settings.update({ accountPolicy: policy });
}

/** Row counts of the account tables, to prove a refused request wrote nothing. */
export async function accountCounts(app: FastifyInstance) {
  const count = async (table: typeof users | typeof sessions | typeof userTokens) => {
    const [row] = await app.db.select({ value: sql<number>`count(*)::int` }).from(table);
    return row?.value ?? 0;
  };
  return { users: await count(users), sessions: await count(sessions), tokens: await count(userTokens) };
}

export async function userRow(app: FastifyInstance, id: string) {
  const [row] = await app.db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function userByName(app: FastifyInstance, userName: string) {
  const [row] = await app.db
    .select()
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${userName})`);
  return row;
}

export const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

// The real SMTP server lives in tests/helpers so the browser tests can use it too.
export { linkFrom, startMailServer, type MailServer } from '../../helpers/mail-server';
