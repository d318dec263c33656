import type { Db } from '../../db/client';
import { logs } from '../../db/schema/logs';

export type NewLogRow = typeof logs.$inferInsert;

export async function insertLogRows(db: Db, rows: NewLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(logs).values(rows);
}
