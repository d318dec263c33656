import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../../server/src/app';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { users } from '../../../server/src/db/schema';
import type { SessionRecord } from '../../../server/src/modules/accounts';
import { SESSION_CACHE_MS, SessionCache, sessionChanges } from '../../../server/src/plugins/app/session-cache';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { startPrivateRedis } from '../helpers/private-services';
import { asUser } from '../helpers/users';

/**
 * Session lookups are cached for a few seconds (plugins/app/session-cache.ts). These show that the
 * changes that must count at once still do: on the instance that made them at the next request, and
 * on another instance sharing Redis as soon as the signal arrives.
 */
const profile = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });

const ban = (app: FastifyInstance, adminCookie: string, userId: string, role = 'Banned') =>
  app.inject({ method: 'PUT', url: `/api/admin/users/${userId}`, headers: { cookie: adminCookie }, payload: { role } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for a signal: well under the cache's lifetime (a minute), so expiry alone could not pass it. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 1_500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

test('sessions cached together expire spread over the last quarter of the lifetime, none later', () => {
  let now = 0;
  let draw = 0;
  // Draws spread evenly over [0, 1): the first entry gets the longest life, the last the shortest.
  const cache = new SessionCache(
    () => now,
    () => (draw++ % 100) / 100,
  );
  const ids = Array.from({ length: 100 }, (_, index) => `session-${index}`);
  for (const id of ids) cache.set({ id, user: { id: `user-${id}` } } as unknown as SessionRecord);
  const cached = () => ids.filter((id) => cache.get(id) !== undefined).length;
  now = SESSION_CACHE_MS * 0.75 - 1;
  assert.equal(cached(), 100, 'every entry lives at least three quarters of the lifetime');
  now = SESSION_CACHE_MS * 0.875;
  assert.equal(cached(), 50, 'half of them are gone halfway through the last quarter');
  now = SESSION_CACHE_MS;
  assert.equal(cached(), 0, 'none outlives the lifetime');
});

for (const engine of engines()) {
  describe(`cached sessions (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    test('a ban and a role change count from the next request of a cached session', async () => {
      const admin = await asUser(ctx.app, 'Admin');
      const { user, cookie } = await asUser(ctx.app);
      assert.equal((await profile(ctx.app, cookie)).statusCode, 200);
      assert.equal((await ban(ctx.app, admin.cookie, user.id)).statusCode, 200);
      assert.equal((await profile(ctx.app, cookie)).statusCode, 403);
      assert.equal((await ban(ctx.app, admin.cookie, user.id, 'Monitor')).statusCode, 200);
      const me = await profile(ctx.app, cookie);
      assert.equal(me.statusCode, 200);
      assert.equal(me.json<{ role: string }>().role, 'Monitor');
    });

    test('signing out, a password change and a deleted user end cached sessions at once', async () => {
      const { cookie } = await asUser(ctx.app);
      assert.equal((await profile(ctx.app, cookie)).statusCode, 200);
      const out = await ctx.app.inject({ method: 'POST', url: '/api/account/logout', headers: { cookie } });
      assert.equal(out.statusCode, 200);
      assert.equal((await profile(ctx.app, cookie)).statusCode, 401);

      const admin = await asUser(ctx.app, 'Admin');
      const reset = await asUser(ctx.app);
      assert.equal((await profile(ctx.app, reset.cookie)).statusCode, 200);
      const password = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/admin/users/${reset.user.id}/password`,
        headers: { cookie: admin.cookie },
      });
      assert.equal(password.statusCode, 200);
      assert.equal((await profile(ctx.app, reset.cookie)).statusCode, 401);

      const gone = await asUser(ctx.app);
      assert.equal((await profile(ctx.app, gone.cookie)).statusCode, 200);
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/admin/users/${gone.user.id}`,
        headers: { cookie: admin.cookie },
      });
      assert.equal(deleted.statusCode, 200);
      assert.equal((await profile(ctx.app, gone.cookie)).statusCode, 401);
    });
  });
}

const postgres = engines().find((engine) => engine.name === 'postgres');
const redisUrl = process.env.REDIS_URL;
if (postgres && redisUrl) {
  describe('cached sessions on two instances sharing PostgreSQL and Redis', () => {
    let database: DatabaseHandle;
    let one: FastifyInstance;
    let two: FastifyInstance;
    before(async () => {
      database = await postgres.open();
      const prefix = `test-${randomBytes(6).toString('hex')}:`;
      const shared = { ...database, close: async () => {} };
      const start = async () => {
        const app = await buildApp({
          env: testEnv({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix }),
          database: shared,
          logger: false,
        });
        await app.ready();
        return app;
      };
      one = await start();
      // The second instance, as another process would, hears of the first one's changes only through
      // the signal: its listeners on this process's repository announcements are taken off.
      const before = { user: sessionChanges.listeners('user'), session: sessionChanges.listeners('session') };
      two = await start();
      for (const event of ['user', 'session'] as const) {
        for (const listener of sessionChanges.listeners(event)) {
          if (!(before[event] as unknown[]).includes(listener)) sessionChanges.off(event, listener as () => void);
        }
      }
    });
    after(async () => {
      await one.close();
      await two.close();
      await database.close();
    });

    test('a ban, a role change and a sign-out on one instance reach the other', async () => {
      const admin = await asUser(one, 'Admin');
      const { user, cookie } = await asUser(one);
      // The second instance caches the session.
      assert.equal((await profile(two, cookie)).statusCode, 200);
      assert.equal((await ban(one, admin.cookie, user.id)).statusCode, 200);
      await until('the ban to reach the other instance', async () => (await profile(two, cookie)).statusCode === 403);

      assert.equal((await ban(one, admin.cookie, user.id, 'Monitor')).statusCode, 200);
      await until(
        'the role change to reach the other instance',
        async () => (await profile(two, cookie)).json<{ role?: string }>().role === 'Monitor',
      );

      const out = await one.inject({ method: 'POST', url: '/api/account/logout', headers: { cookie } });
      assert.equal(out.statusCode, 200);
      await until(
        'the sign-out to reach the other instance',
        async () => (await profile(two, cookie)).statusCode === 401,
      );
    });
  });
}

const [pglite] = engines();
if (redisUrl) {
  describe('cached sessions after the signal subscriber reconnects', () => {
    test('every cached lookup is dropped: a change announced while the instance could not hear counts at once', async () => {
      // A Redis of its own: dropping every subscriber of the shared one would disturb other tests.
      const redis = await startPrivateRedis();
      const ctx = await createTestApp(pglite!, { env: testEnv({ REDIS_URL: redis.url }) });
      const admin = new Redis(redis.url);
      try {
        const { user, cookie } = await asUser(ctx.app);
        assert.equal((await profile(ctx.app, cookie)).statusCode, 200);
        // Another instance's ban whose announcement this one missed: written without one.
        await ctx.database.db.update(users).set({ role: 'Banned' }).where(eq(users.id, user.id));
        assert.equal((await profile(ctx.app, cookie)).statusCode, 200, 'the lookup is cached');
        let reconnections = 0;
        ctx.app.signals.onReconnect(() => (reconnections += 1));
        await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
        await until('the subscriber to reconnect', async () => reconnections > 0, 15_000);
        assert.equal((await profile(ctx.app, cookie)).statusCode, 403);
      } finally {
        admin.disconnect();
        await ctx.close();
        await redis.stop();
      }
    });
  });
}
