import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../../server/src/app';
import { logs } from '../../../server/src/db/schema';
import { LogSink, toLogRow } from '../../../server/src/plugins/app/logs';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';

interface LogMessage {
  time: number;
  name: string | null;
  level: string;
  ip: string | null;
  msg: string;
  status: string | null;
}

for (const engine of engines()) {
  describe(`admin logs and files (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: Awaited<ReturnType<typeof asUser>>;

    before(async () => {
      ctx = await createTestApp(engine);
      admin = await asUser(ctx.app, 'Admin');
    });
    after(async () => ctx.close());

    const getLogs = async (query = '') => {
      await ctx.app.logSink.flush();
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/admin/logs${query}`,
        headers: { cookie: admin.cookie },
      });
      assert.equal(response.statusCode, 200, response.body);
      assertMatchesContract('adminLogs', response.json());
      return response.json() as LogMessage[];
    };

    test('admin actions are logged with the admin, the IP and a status, newest first', async () => {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/edit/posts',
        payload: { title: 'logged post', summary: '', content: '' },
        headers: { cookie: admin.cookie },
      });
      await ctx.app.inject({ method: 'DELETE', url: '/api/admin/config/logo', headers: { cookie: admin.cookie } });
      const entries = await getLogs();
      const [newest, previous] = entries;
      assert.equal(newest?.msg, 'Platform logo reset to the default');
      assert.match(previous?.msg ?? '', /^Post [0-9a-f]{8} "logged post" created$/);
      assert.equal(newest?.name, admin.user.userName);
      assert.equal(newest?.ip, '127.0.0.1');
      assert.equal(newest?.level, 'Information');
      assert.equal(newest?.status, 'Success');
      assert.ok(newest!.time >= previous!.time);
    });

    test('request noise is not stored; server events are', async () => {
      for (let i = 0; i < 5; i++) await ctx.app.inject({ method: 'GET', url: '/api/config' });
      const entries = await getLogs('?count=1000');
      assert.ok(!entries.some((entry) => /incoming request|request completed/.test(entry.msg)));
      assert.ok(entries.some((entry) => entry.msg === 'Created the welcome post' && entry.name === null));
    });

    test('denied requests are logged as warnings under the caller', async () => {
      const { user, cookie } = await asUser(ctx.app, 'User');
      const denied = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie } });
      assert.equal(denied.statusCode, 403);
      const warnings = await getLogs('?level=Warning');
      assert.ok(warnings.length > 0);
      assert.ok(warnings.every((entry) => entry.level === 'Warning'));
      assert.equal(warnings[0]?.name, user.userName);
      assert.deepEqual(await getLogs('?level=warning'), warnings, 'level names are case-insensitive');
    });

    test('level, count and skip filter and page the entries', async () => {
      const all = await getLogs('?count=1000');
      const page = await getLogs('?count=2&skip=1');
      assert.deepEqual(page, all.slice(1, 3));
      const information = await getLogs('?level=Information&count=1000');
      assert.ok(information.every((entry) => entry.level === 'Information'));
      assert.equal((await getLogs('?count=0')).length, 0);
      for (const query of ['?level=Loud', '?count=1001', '?skip=-1']) {
        const response = await ctx.app.inject({
          method: 'GET',
          url: `/api/admin/logs${query}`,
          headers: { cookie: admin.cookie },
        });
        assert.equal(response.statusCode, 400, query);
        assertMatchesContract('adminLogs', response.json(), 400);
      }
      const unknown = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/logs?level=Loud',
        headers: { cookie: admin.cookie },
      });
      assert.match(unknown.json().title, /Loud.*Information/);
    });

    test('the sink writes a batch as soon as more than 50 entries wait', async () => {
      const sink = new LogSink(ctx.app.db, { intervalMs: 3_600_000 });
      const before = (await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(logs))[0]!.n;
      for (let i = 0; i < 51; i++) {
        sink.add(toLogRow({ level: 30, time: Date.now(), msg: `batch ${i}` })!);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      await sink.close();
      const afterCount = (await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(logs))[0]!.n;
      assert.equal(afterCount - before, 51);
    });

    test('a backlog beyond one statement’s 65,535 parameters is stored whole, not dropped', async () => {
      // 9,000 rows of 8 parameters each, as after a minute of failing requests while a write hung.
      const sink = new LogSink(ctx.app.db, { intervalMs: 3_600_000, maxBatch: 100_000 });
      const count = async () => (await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(logs))[0]!.n;
      const before = await count();
      for (let i = 0; i < 9_000; i++) {
        sink.add(toLogRow({ level: 40, time: Date.now(), msg: `backlog ${i}`, ip: '10.0.0.1', status: 'Failed' })!);
      }
      await sink.close();
      assert.equal((await count()) - before, 9_000);
    });

    test('files are listed newest first, one page at a time', async () => {
      const body = multipart([
        { field: 'files', filename: 'one.txt', content: 'file one' },
        { field: 'files', filename: 'two.txt', content: 'file two' },
        { field: 'files', filename: 'three.txt', content: 'file three' },
      ]);
      await ctx.app.inject({
        method: 'POST',
        url: '/api/assets',
        payload: body.payload,
        headers: { ...body.headers, cookie: admin.cookie },
      });
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/files?count=2',
        headers: { cookie: admin.cookie },
      });
      assert.equal(response.statusCode, 200);
      const page = response.json();
      assertMatchesContract('adminFiles', page);
      assert.equal(page.length, 2);
      assert.equal(page.total, 2, 'total is the page length, as the contract documents');
      const all = (
        await ctx.app.inject({ method: 'GET', url: '/api/admin/files', headers: { cookie: admin.cookie } })
      ).json();
      assert.deepEqual(
        all.data
          .slice(0, 3)
          .map((file: { name: string }) => file.name)
          .sort(),
        ['one.txt', 'three.txt', 'two.txt'],
      );
      const skipped = (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/admin/files?count=2&skip=1',
          headers: { cookie: admin.cookie },
        })
      ).json();
      assert.deepEqual(skipped.data, all.data.slice(1, 3));
      const tooMany = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/files?count=501',
        headers: { cookie: admin.cookie },
      });
      assert.equal(tooMany.statusCode, 400);
      assertMatchesContract('adminFiles', tooMany.json(), 400);
    });
  });

  describe(`log sink on close (${engine.name})`, () => {
    test('entries still waiting are stored when the app closes', async () => {
      const database = await engine.open();
      const env = testEnv();
      try {
        const app = await buildApp({ env, database, logger: false });
        await app.ready();
        app.log.info({ status: 'Success' }, 'written at shutdown');
        app.log.debug('below Information: not stored');
        await app.close();
        const rows = await database.db.select().from(logs);
        const row = rows.find((entry) => entry.message === 'written at shutdown');
        assert.equal(row?.level, 'Information');
        assert.equal(row?.status, 'Success');
        assert.equal(row?.userName, null, 'not from a request');
        assert.ok(!rows.some((entry) => entry.message.startsWith('below Information')));
      } finally {
        await database.close();
        fs.rmSync(env.dataDir, { recursive: true, force: true });
      }
    });
  });
}
