import { and, eq, lt } from 'drizzle-orm';
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
