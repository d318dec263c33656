import { and, eq, lt } from 'drizzle-orm';
import { queryNamed, type Db } from '../../db/client';
import { sessions } from '../../db/schema';
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

const FIND_SESSIONS = `
  select s.id, s.expires_at, u.id as user_id, u.user_name, u.email, u.role::text as role, u.last_visited_at, u.ip
  from sessions s join users u on u.id = s.user_id
  where s.id = any($1::varchar[])`;

interface SessionRow {
  id: string;
  expires_at: Date | string;
  user_id: string;
  user_name: string;
  email: string;
  role: Role;
  last_visited_at: Date | string;
  ip: string;
}

/**
 * Several sessions at once (concurrent requests' lookups share this query). Every authenticated
 * request runs it, so it is a named statement with one array parameter.
 */
export async function findSessions(db: Db, ids: string[]): Promise<SessionRecord[]> {
  const rows = await queryNamed<SessionRow>(db, 'find_sessions', FIND_SESSIONS, [ids]);
  return rows.map((row) => ({
    id: row.id,
    expiresAt: new Date(row.expires_at),
    user: {
      id: row.user_id,
      userName: row.user_name,
      email: row.email,
      role: row.role,
      lastVisitedAt: new Date(row.last_visited_at),
      ip: row.ip,
    },
  }));
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

/**
 * The visits' write. `synchronous_commit` off for this statement only: a visit time lost to a
 * database crash is harmless, and the request then need not wait for the WAL to reach the disk
 * (the flush stays for the writes that must be durable, such as acknowledged submissions).
 */
const RECORD_VISITS = `
  update users u set ip = d.ip, last_visited_at = d.at
  from json_to_recordset($1::json) as d(id uuid, ip text, at timestamptz)
  where u.id = d.id and set_config('synchronous_commit', 'off', true) is not null`;

/** Several users' visits in one statement (concurrent requests share it). */
export async function recordVisits(db: Db, visits: Array<{ userId: string; ip: string; at: Date }>): Promise<void> {
  const rows = JSON.stringify(visits.map((visit) => ({ id: visit.userId, ip: visit.ip, at: visit.at.toISOString() })));
  await queryNamed(db, 'record_visits', RECORD_VISITS, [rows]);
}
