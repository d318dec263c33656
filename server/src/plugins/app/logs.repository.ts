import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { logs } from '../../db/schema/logs';

export type LogRow = typeof logs.$inferSelect;
export type NewLogRow = typeof logs.$inferInsert;

/**
 * The most rows to hand `insertLogRows` at once. A statement binds at most 65,535 parameters (the protocol
 * counts them in 16 bits) and a row binds 8, so one of more than 8,191 rows always failed.
 */
export const LOG_INSERT_MAX_ROWS = 1_000;

export async function insertLogRows(db: Db, rows: NewLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(logs).values(rows);
}

/** Newest first; `level` undefined means every level. */
export async function listLogs(
  db: Db,
  filter: { level: string | undefined; count: number; skip: number },
): Promise<LogRow[]> {
  return db
    .select()
    .from(logs)
    .where(filter.level ? eq(logs.level, filter.level) : undefined)
    .orderBy(desc(logs.at), desc(logs.id))
    .limit(filter.count)
    .offset(filter.skip);
}
