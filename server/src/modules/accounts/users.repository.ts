import { asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessionChanges } from '../../plugins/app/session-cache';
import { users } from '../../db/schema/users';
import { searchPattern } from '../../lib/paging';
import { sortOrder, type SortRequest } from '../../lib/sorting';
import { teamRows } from '../teams/read-models';

const team = teamRows();

export type UserRow = typeof users.$inferSelect;

/** `pattern` (`searchPattern`) in the name, student number, e-mail, phone, id or real name. */
function userMatches(pattern: string | undefined) {
  return pattern
    ? or(
        ilike(users.userName, pattern),
        ilike(users.stdNumber, pattern),
        ilike(users.email, pattern),
        ilike(users.phone, pattern),
        ilike(sql`${users.id}::text`, pattern),
        ilike(users.realName, pattern),
      )
    : undefined;
}

export type UserSort = 'userName' | 'email' | 'role' | 'lastVisitedUtc' | 'registerTimeUtc';

/** Names compare case-insensitively (as they are unique), which the lower(user_name) index serves. */
const USER_SORT_COLUMNS = {
  userName: sql`lower(${users.userName})`,
  email: sql`lower(${users.email})`,
  role: users.role,
  lastVisitedUtc: users.lastVisitedAt,
  registerTimeUtc: users.registerAt,
};

/**
 * Users in the order asked for, by default in registration order (our ids are random, GZCTF's
 * time-ordered; see db/schema/users.ts).
 */
export async function listUsers(
  db: Db,
  page: { count: number; skip: number } & SortRequest<UserSort>,
  pattern?: string,
): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(userMatches(pattern))
    .orderBy(...sortOrder(USER_SORT_COLUMNS, users.id, page, [asc(users.registerAt), asc(users.id)]))
    .limit(page.count)
    .offset(page.skip);
}

export async function countUsers(db: Db, pattern?: string): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users).where(userMatches(pattern));
  return row?.value ?? 0;
}

/** The first `limit` users matching `hint` (GZCTF's search). */
export async function searchUsers(db: Db, hint: string, limit: number): Promise<UserRow[]> {
  return listUsers(db, { count: limit, skip: 0 }, searchPattern(hint));
}

export async function captainsTeamCount(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ value: count() }).from(team).where(eq(team.captainId, userId));
  return row?.value ?? 0;
}

export async function deleteUserRow(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.delete(users).where(eq(users.id, id)).returning();
  // Its sessions went with it (foreign key): cached lookups of them must go too.
  sessionChanges.emit('user', id);
  return row;
}
