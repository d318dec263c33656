import { hash, verify } from '@node-rs/argon2';

/**
 * Password hashing and GZCTF's password rules. GZCTF keeps ASP.NET Identity's defaults except
 * `RequireNonAlphanumeric` (reference §1.2): at least 6 characters, one digit, one lower-case and one
 * upper-case letter. Hashes are argon2id with the library's defaults (OWASP's minimum profile).
 */
export const PASSWORD_MIN_LENGTH = 6;

export type PasswordProblem = 'tooShort' | 'requiresDigit' | 'requiresLower' | 'requiresUpper';

/** The first rule the password breaks, in Identity's order, or undefined when it is acceptable. */
export function passwordProblem(password: string): PasswordProblem | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (!/[0-9]/.test(password)) return 'requiresDigit';
  if (!/[a-z]/.test(password)) return 'requiresLower';
  if (!/[A-Z]/.test(password)) return 'requiresUpper';
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * Hashes at most this many of a batch at once. Each hash holds one of libuv's threads (four by
 * default) for tens of milliseconds; a whole import queued at once would keep sign-ins, file reads
 * and compression waiting behind it for as long as the import takes.
 */
const BATCH_HASH_CONCURRENCY = 2;

/** Hashes a batch (an admin's import) a few at a time, in the order given. */
export async function hashPasswords(passwords: readonly string[]): Promise<string[]> {
  const hashes: string[] = new Array<string>(passwords.length);
  let next = 0;
  const worker = async () => {
    while (next < passwords.length) {
      const index = next++;
      hashes[index] = await hash(passwords[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_HASH_CONCURRENCY, passwords.length) }, worker));
  return hashes;
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash (hand-edited row) is a failed sign-in, not a server error.
    return false;
  }
}

// Verifying against a real hash when the user does not exist keeps "unknown user" and "wrong
// password" equally slow, so response times do not reveal which user names exist.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('not-a-real-password-0A');
  await verifyPassword(await dummyHash, password);
}
