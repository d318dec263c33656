import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { sessionChanges } from '../../plugins/app/session-cache';
import { sessions, userTokens, users } from '../../db/schema/users';
import type { Role, UserTokenPurpose } from '../../db/schema/enums';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type UserChanges = Partial<Omit<NewUser, 'id'>>;

// Names and addresses are unique on lower(...) (see db/README.md), so lookups use the same form.
const sameName = (name: string) => sql`lower(${users.userName}) = lower(${name})`;
const sameEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByName(db: Db, userName: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sameName(userName));
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sameEmail(email));
  return row;
}

/** Sign-in accepts a user name or an e-mail; a user name wins if one user's name is another's address. */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(or(sameName(login), sameEmail(login)))
    .limit(2);
  return rows.find((row) => row.userName.toLowerCase() === login.toLowerCase()) ?? rows[0];
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return row?.count ?? 0;
}

export async function insertUser(db: Db, values: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

/** The user fields a session lookup returns (or that end the user's sessions): changing one is announced. */
const SESSION_FIELDS = ['userName', 'email', 'role', 'passwordHash'] as const;

export async function updateUser(db: Db, id: string, changes: UserChanges): Promise<UserRow | undefined> {
  if (Object.keys(changes).length === 0) return findUserById(db, id);
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
  if (SESSION_FIELDS.some((field) => changes[field] !== undefined)) sessionChanges.emit('user', id);
  // Links mailed for a reset or an address change were for the password and address there were:
  // whoever could read that mailbox must not keep a way in after the owner has changed them.
  if (row && (changes.passwordHash !== undefined || changes.email !== undefined)) {
    await deleteUnusedUserTokens(db, id, ['PasswordReset', 'EmailChange']);
  }
  return row;
}

export async function setUserRole(db: Db, id: string, role: Role): Promise<void> {
  await db.update(users).set({ role }).where(eq(users.id, id));
  sessionChanges.emit('user', id);
}

// ---- single-use mail tokens (stored as SHA-256, see db/schema/users.ts) ----

export type UserTokenRow = typeof userTokens.$inferSelect;

/** Issues a token; earlier unused tokens of the same purpose stop working, so only the newest mail counts. */
export async function replaceUserToken(
  db: Database,
  values: { tokenHash: string; userId: string; purpose: UserTokenPurpose; email: string; expiresAt: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(userTokens)
      .where(
        and(eq(userTokens.userId, values.userId), eq(userTokens.purpose, values.purpose), isNull(userTokens.usedAt)),
      );
    await tx.insert(userTokens).values(values);
  });
}

/** Whether the user holds a link of the purpose still usable now, and whether one was ever used. */
export async function userTokenState(
  db: Db,
  userId: string,
  purpose: UserTokenPurpose,
  now = new Date(),
): Promise<{ live: boolean; used: boolean }> {
  const [row] = await db
    .select({
      live: sql<boolean>`coalesce(bool_or(${userTokens.usedAt} is null and ${userTokens.expiresAt} > ${now}), false)`,
      used: sql<boolean>`coalesce(bool_or(${userTokens.usedAt} is not null), false)`,
    })
    .from(userTokens)
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose)));
  return { live: row?.live === true, used: row?.used === true };
}

/** Voids the user's unused links of these purposes: the password or address they were mailed for has changed. */
export async function deleteUnusedUserTokens(db: Db, userId: string, purposes: UserTokenPurpose[]): Promise<void> {
  await db
    .delete(userTokens)
    .where(and(eq(userTokens.userId, userId), inArray(userTokens.purpose, purposes), isNull(userTokens.usedAt)));
}

/** The user's row, locked until the caller's transaction ends (`for update`: it may be rewritten). */
export async function lockUserRow(tx: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/**
 * Marks a token used if it is the right purpose, unused and unexpired, returning it; undefined
 * otherwise. Run it in the same transaction as the change it authorises, so a failed change leaves
 * the token usable and a used token can never authorise two changes.
 */
export async function consumeUserToken(
  db: Db,
  tokenHash: string,
  purpose: UserTokenPurpose,
  now = new Date(),
): Promise<UserTokenRow | undefined> {
  const [row] = await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(userTokens.tokenHash, tokenHash),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

// ---- sessions of a user (the session store itself lives in plugins/app/session.ts) ----

/** Signs a user out everywhere, except the session `keep` (the browser that made the change). */
export async function deleteUserSessions(db: Db, userId: string, keep?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
  sessionChanges.emit('user', userId);
}
