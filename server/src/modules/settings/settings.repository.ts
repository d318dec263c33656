import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { config } from '../../db/schema/config';

/** Settings rows are `section.field` keys with JSON values (e.g. `globalConfig.title` = `"GZ"`). */
export async function readSettingRows(db: Db): Promise<Array<{ key: string; value: string }>> {
  return db.select({ key: config.key, value: config.value }).from(config);
}

/**
 * One upsert, so concurrent saves wait for each other's rows and the last one wins: a delete and an
 * insert let the second save's insert hit the rows the first had just put back (a duplicate key).
 * Sorted by key, so two saves lock their rows in the same order and cannot deadlock.
 */
export async function writeSettingRows(db: Db, rows: Array<{ key: string; value: string }>): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  await db
    .insert(config)
    .values(sorted)
    .onConflictDoUpdate({ target: config.key, set: { value: sql`excluded.value` } });
}

/**
 * Holds a named lock on the settings until the transaction ends, for read-modify-write changes (the
 * logo: two at once would both release the same previous files). Advisory, so it needs no row to
 * exist; on PGlite, whose transactions run one at a time anyway, it costs nothing.
 */
export async function lockSettings(tx: Db, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`settings:${name}`}, 0))`);
}
