import { and, eq, lt } from 'drizzle-orm';
import { queryNamed, type Db } from '../../db/client';
import { sessions } from '../../db/schema/users';
import type { Role } from '../../db/schema/enums';
import { sessionChanges } from '../../plugins/app/session-cache';

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

/** A session lookup: the stored id, and the visit to record with it (the request's address and time). */
export interface SessionLookup {
  id: string;
  ip: string;
  at: Date;
}

/**
 * Reads the sessions and, in the same statement, records the visit of each user whose last visit
 * is at least 5 s older than this one (GZCTF refreshes `LastVisitedUtc` and `IP` at most that
 * often) through an unexpired session: every authenticated request needs the lookup and most need
 * the visit, so they share one round trip. The visit is committed with `synchronous_commit` off for
 * this statement only: a visit time lost to a database crash is harmless, and the request need not
 * wait for the WAL to reach the disk. Rows carry the last visit as it was before this one.
 */
const IDENTIFY = `
  with req as (
    select * from json_to_recordset($1::json) as r(n int, id text, ip text, at timestamptz)
  ), found as (
    select r.n, s.id, s.expires_at, u.id as user_id, u.user_name, u.email, u.role::text as role,
      u.last_visited_at, u.ip, r.ip as visit_ip, r.at as visit_at
    from req r join sessions s on s.id = r.id join users u on u.id = s.user_id
  ), visits as (
    update users u set ip = v.visit_ip, last_visited_at = v.visit_at
    from (
      select distinct on (user_id) user_id, visit_ip, visit_at from found
      where expires_at > visit_at and visit_at - last_visited_at >= interval '5 seconds'
      order by user_id, n desc
    ) v
    where u.id = v.user_id and set_config('synchronous_commit', 'off', true) is not null
  )
  select n, id, expires_at, user_id, user_name, email, role, last_visited_at, ip from found`;

interface SessionRow {
  n: number;
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
 * Several sessions at once (concurrent requests' lookups share this statement), in `lookups` order
 * (undefined: no such session). Every authenticated request runs it, so it is a named statement
 * with one JSON parameter.
 */
export async function identifySessions(db: Db, lookups: SessionLookup[]): Promise<Array<SessionRecord | undefined>> {
  const input = JSON.stringify(lookups.map((lookup, n) => ({ n, id: lookup.id, ip: lookup.ip, at: lookup.at })));
  const rows = await queryNamed<SessionRow>(db, 'identify_sessions', IDENTIFY, [input]);
  const found: Array<SessionRecord | undefined> = lookups.map(() => undefined);
  for (const row of rows) {
    found[row.n] = {
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
    };
  }
  return found;
}

export async function extendSession(db: Db, id: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
  sessionChanges.emit('session', id);
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
  sessionChanges.emit('session', id);
}

/** A visit seen on a cached session lookup, recorded later with others (`recordVisits`). */
export interface Visit {
  userId: string;
  ip: string;
  at: Date;
}

const RECORD_VISITS = `
  update users u set ip = v.ip, last_visited_at = v.at
  from json_to_recordset($1::json) as v(user_id uuid, ip text, at timestamptz)
  where u.id = v.user_id and v.at > u.last_visited_at and set_config('synchronous_commit', 'off', true) is not null`;

/** Records visits (one per user) in one statement; a visit older than the recorded one is ignored. */
export async function recordVisits(db: Db, visits: Visit[]): Promise<void> {
  if (visits.length === 0) return;
  const input = JSON.stringify(visits.map((visit) => ({ user_id: visit.userId, ip: visit.ip, at: visit.at })));
  await queryNamed(db, 'record_visits', RECORD_VISITS, [input]);
}

export async function deleteExpiredSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
}
