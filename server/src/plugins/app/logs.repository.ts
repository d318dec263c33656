import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { logs } from '../../db/schema/logs';

export type LogRow = typeof logs.$inferSelect;
export type NewLogRow = typeof logs.$inferInsert;

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
