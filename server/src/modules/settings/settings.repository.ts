import { inArray } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { config } from '../../db/schema/config';

/** Settings rows are `section.field` keys with JSON values (e.g. `globalConfig.title` = `"GZ"`). */
export async function readSettingRows(db: Db): Promise<Array<{ key: string; value: string }>> {
  return db.select({ key: config.key, value: config.value }).from(config);
}

export async function writeSettingRows(db: Database, rows: Array<{ key: string; value: string }>): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.delete(config).where(
      inArray(
        config.key,
        rows.map((row) => row.key),
      ),
    );
    await tx.insert(config).values(rows);
  });
}
