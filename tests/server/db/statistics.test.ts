import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { TableStatistics } from '../../../server/src/plugins/app/statistics';
import { engines } from '../helpers/database';

for (const engine of engines()) {
  describe(`table statistics (${engine.name})`, () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await engine.open();
    });
    after(async () => database.close());

    const plan = async () =>
      (await database.db.execute<{ 'QUERY PLAN': string }>(sql`explain select 1 from logs where id = 4242`)).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');

    test('a table that outgrew its statistics is analyzed, and lookups by key then use its index', async () => {
      const statistics = new TableStatistics(database.db);
      await database.db.execute(sql`analyze logs`);
      await database.db.execute(sql`insert into logs (level, logger, message)
        select 'Information', 'Test', repeat('x', 200) || g from generate_series(1, 5000) g`);
      const pages = async () =>
        Number(
          (
            await database.db.execute<{ pages: number }>(
              sql`select relpages as pages from pg_class where relname = 'logs'`,
            )
          ).rows[0]!.pages,
        );
      assert.equal(await pages(), 0, 'analyzed while empty');

      assert.ok((await statistics.refresh()).includes('logs'));
      assert.ok((await pages()) > 8, 'the statistics now know the table’s size');
      assert.match(await plan(), /Index (Only )?Scan/);
      assert.ok(!(await statistics.refresh()).includes('logs'), 'nothing grew since');
    });
  });
}
