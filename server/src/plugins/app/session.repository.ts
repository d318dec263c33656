import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import type { Role } from '../../db/schema/enums';

export interface SessionRecord {
  id: string;
  expiresAt: Date;
  user: { id: string; userName: string; email: string; role: Role; lastVisitedAt: Date; ip: string };
}

export async function insertSession(
  db: Db,
  values: { id: string; userId: string; expiresAt: Date; ip: string | null; userAgent: string | null },
): Promise<void> {
  await db.insert(sessions).values(values);
}

export async function findSession(db: Db, id: string): Promise<SessionRecord | undefined> {
  const [row] = await db
    .select({
      id: sessions.id,
      expiresAt: sessions.expiresAt,
      user: {
        id: users.id,
        userName: users.userName,
        email: users.email,
        role: users.role,
        lastVisitedAt: users.lastVisitedAt,
        ip: users.ip,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id));
  return row;
}

/** Several sessions at once (concurrent requests' lookups share this query). */
export async function findSessions(db: Db, ids: string[]): Promise<SessionRecord[]> {
  return db
    .select({
      id: sessions.id,
      expiresAt: sessions.expiresAt,
      user: {
        id: users.id,
        userName: users.userName,
        email: users.email,
        role: users.role,
        lastVisitedAt: users.lastVisitedAt,
        ip: users.ip,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(ids.length === 1 ? eq(sessions.id, ids[0]!) : inArray(sessions.id, ids));
}

export async function extendSession(db: Db, id: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

export async function deleteExpiredSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
}

export async function recordVisit(db: Db, userId: string, ip: string, at: Date): Promise<void> {
  await db.update(users).set({ ip, lastVisitedAt: at }).where(eq(users.id, userId));
}

/** Several users' visits in one statement (concurrent requests share it). */
export async function recordVisits(db: Db, visits: Array<{ userId: string; ip: string; at: Date }>): Promise<void> {
  if (visits.length === 1) {
    await recordVisit(db, visits[0]!.userId, visits[0]!.ip, visits[0]!.at);
    return;
  }
  const rows = JSON.stringify(visits.map((visit) => ({ id: visit.userId, ip: visit.ip, at: visit.at.toISOString() })));
  await db.execute(sql`
    update ${users} u set ip = d.ip, last_visited_at = d.at
    from json_to_recordset(${rows}::json) as d(id uuid, ip text, at timestamptz)
    where u.id = d.id`);
}
