import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { config } from '../../../server/src/db/schema';
import { settingsPlugin } from '../../../server/src/modules/settings';
import { createSettingsStore, SETTINGS_CACHE_MS } from '../../../server/src/modules/settings/settings.plugin';
import type { Signals } from '../../../server/src/plugins/app/signals';
import { createTestApp, testEnv } from '../helpers/app';
import { engines } from '../helpers/database';
import { startPrivateRedis } from '../helpers/private-services';
import { until } from '../helpers/server-process';

/**
 * Each instance keeps its own copy of the settings and drops it when another announces a change
 * (signals, over Redis pub/sub). A lost announcement must not leave an instance on the old settings
 * for good: the copy expires after a few seconds, and is dropped at once when the instance's signal
 * subscriber comes back after a break, during which announcements may have gone by.
 */
const setTitle = (handle: DatabaseHandle, title: string) =>
  handle.db
    .insert(config)
    .values({ key: 'globalConfig.title', value: JSON.stringify(title) })
    .onConflictDoUpdate({ target: config.key, set: { value: JSON.stringify(title) } });

for (const engine of engines()) {
  describe(`settings copies on several instances (${engine.name})`, () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await engine.open();
    });
    after(async () => database.close());

    test('a change whose announcement was lost reaches the other copy when it expires', async () => {
      let now = 1_000_000;
      const clock = () => now;
      const saving = createSettingsStore(database.db, clock);
      const other = createSettingsStore(database.db, clock);
      await saving.update({ globalConfig: { title: 'Before' } });
      assert.equal((await other.get()).globalConfig.title, 'Before');
      // Saved on the first; the second's announcement never comes (no listener forwards it).
      await saving.update({ globalConfig: { title: 'After' } });
      assert.equal((await other.get()).globalConfig.title, 'Before', 'served from the copy meanwhile');
      now += SETTINGS_CACHE_MS;
      assert.equal((await other.get()).globalConfig.title, 'After');
    });

    test('a signal subscriber back after a break drops the copy at once', async () => {
      const reconnected: Array<() => void> = [];
      // Signals that lose every message, as Redis pub/sub does while a subscriber is disconnected.
      const signals: Signals = {
        publish: async () => {},
        subscribe: () => {},
        onReconnect: (listener) => void reconnected.push(listener),
      };
      const app = Fastify({ logger: false });
      app.register(fp(async (instance) => void instance.decorate('db', database.db), { name: 'db' }));
      app.register(fp(async (instance) => void instance.decorate('signals', signals), { name: 'signals' }));
      app.register(settingsPlugin);
      await app.ready();
      try {
        await setTitle(database, 'Cached');
        app.settings.invalidate();
        assert.equal((await app.settings.get()).globalConfig.title, 'Cached');
        // Another instance's change, announced while this one could not hear.
        await setTitle(database, 'Missed');
        assert.equal((await app.settings.get()).globalConfig.title, 'Cached');
        assert.ok(reconnected.length > 0, 'the settings listen for reconnections');
        for (const listener of reconnected) listener();
        assert.equal((await app.settings.get()).globalConfig.title, 'Missed');
      } finally {
        await app.close();
      }
    });
  });
}

const [pglite] = engines();
if (process.env.REDIS_URL) {
  describe('signals over Redis after the subscriber reconnects', () => {
    test('the app hears of the reconnection, re-reads its settings, and signals flow again', async () => {
      // A Redis of its own: dropping every subscriber of the shared one would disturb other tests.
      const redis = await startPrivateRedis();
      const ctx = await createTestApp(pglite!, { env: testEnv({ REDIS_URL: redis.url }) });
      const admin = new Redis(redis.url);
      try {
        let reconnections = 0;
        ctx.app.signals.onReconnect(() => (reconnections += 1));
        assert.equal((await ctx.app.settings.get()).globalConfig.title, 'GZ');
        await setTitle(ctx.database, 'While away');
        await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
        await until('the subscriber to reconnect', async () => (reconnections > 0 ? true : undefined), 15_000);
        // The settings' own listener ran before this test's (registered earlier).
        assert.equal((await ctx.app.settings.get()).globalConfig.title, 'While away');

        const heard: unknown[] = [];
        ctx.app.signals.subscribe('test-topic', (payload) => heard.push(payload));
        await ctx.app.signals.publish('test-topic', 'hello');
        await until('the signal to come back through Redis', async () => (heard.length > 0 ? true : undefined), 15_000);
        assert.deepEqual(heard, ['hello']);
      } finally {
        admin.disconnect();
        await ctx.close();
        await redis.stop();
      }
    });
  });
}
