import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { serializeError } from '../../../server/src/plugins/app/log-errors';
import type { NewLogRow } from '../../../server/src/plugins/app/logs.repository';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';

const SECRET = 'S3cret-value-9f2';

test("ioredis's failed command (a refused AUTH) and drizzle's values stay out of a logged error", () => {
  const refused = Object.assign(new Error('WRONGPASS invalid username-password pair or user is disabled.'), {
    command: { name: 'hello', args: [3, 'AUTH', 'default', SECRET] },
  });
  const cause = Object.assign(new Error('deadlock detected'), { code: '40P01', detail: `Key (token)=(${SECRET})` });
  const failed = Object.assign(new Error(`Failed query: insert into teams (token) values ($1)\nparams: ${SECRET}`), {
    query: 'insert into teams (token) values ($1)',
    params: [SECRET],
    cause,
  });
  for (const error of [refused, failed]) {
    const logged = serializeError(error);
    assert.ok(!JSON.stringify(logged).includes(SECRET), JSON.stringify(logged));
    assert.match(logged.stack, /\n {4}at /, 'the frames stay');
  }
  const logged = serializeError(failed);
  assert.equal(logged.message, 'Failed query: insert into teams (token) values ($1): deadlock detected');
  assert.equal(logged.query, 'insert into teams (token) values ($1)', 'the statement (no values) says what failed');
  assert.equal((logged.cause as { code: string }).code, '40P01');
  assert.equal(serializeError(refused).message, 'WRONGPASS invalid username-password pair or user is disabled.');
});

for (const engine of engines()) {
  describe(`the logger's errors (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    test("a failed query's values reach neither the log record nor the stored exception", async () => {
      const error = await ctx.app.db.execute(sql`select ${SECRET}::text as t, 1 / 0 as boom`).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof Error);
      assert.ok(JSON.stringify({ ...error, message: error.message }).includes(SECRET), 'drizzle carries the value');
      const rows: NewLogRow[] = [];
      const keep = (row: NewLogRow) => rows.push(row);
      ctx.app.logSink.on('entry', keep);
      try {
        ctx.app.log.error({ err: error }, 'statement failed');
      } finally {
        ctx.app.logSink.off('entry', keep);
      }
      const row = rows.find((each) => each.message === 'statement failed');
      assert.ok(row?.exception, 'the stack is stored');
      assert.match(row.exception, /division by zero/);
      assert.ok(!row.exception.includes(SECRET), row.exception);
    });
  });
}
