import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { Env } from '../../env';
import { hashPassword, passwordProblem } from '../../lib/password';
import { countUsers, findUserByName, insertUser } from '../../modules/accounts';

export const ADMIN_USER_NAME = 'Admin';
export const ADMIN_EMAIL = 'admin@gzti.me';

export interface AdminBootstrap {
  /** An `Admin` user was created by this call. */
  created: boolean;
  /** The generated password, when one was made up (show it once, never log it). */
  generatedPassword?: string;
}

// No 0/O, 1/l/I: the password is read off a terminal and typed in by hand.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** 20 characters from a 57-letter alphabet (~116 bits), always with a digit, a lower and an upper. */
export function generatePassword(): string {
  for (;;) {
    const password = Array.from({ length: 20 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    // A class missing from 20 characters is rare; draw again when it happens.
    if (!passwordProblem(password)) return password;
  }
}

/**
 * The first administrator (reference §1.2). With ADMIN_PASSWORD, an `Admin` user is created when none
 * exists, as GZCTF does. Without it, a fresh database (no users at all) gets `Admin` with a generated
 * password that the caller prints once, so a new install can be administered without reading any
 * docs. Several instances starting together race on the unique index; the losers create nothing.
 */
export async function bootstrapAdmin(db: Db, env: Pick<Env, 'adminPassword'>): Promise<AdminBootstrap> {
  let password = env.adminPassword;
  let generated = false;
  if (password) {
    if (await findUserByName(db, ADMIN_USER_NAME)) return { created: false };
  } else {
    if ((await countUsers(db)) > 0) return { created: false };
    password = generatePassword();
    generated = true;
  }
  try {
    await insertUser(db, {
      userName: ADMIN_USER_NAME,
      email: ADMIN_EMAIL,
      passwordHash: await hashPassword(password),
      role: 'Admin',
      emailConfirmed: true,
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { created: false };
    throw error;
  }
  return generated ? { created: true, generatedPassword: password } : { created: true };
}
