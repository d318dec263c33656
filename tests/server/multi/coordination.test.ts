import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { buildApp } from '../../../server/src/app';
import { connectLockSession, tryHoldAdvisoryLock } from '../../../server/src/db/advisory-lock';
import { connectPostgres, type DatabaseHandle } from '../../../server/src/db/client';
import { createRedisBuildLock } from '../../../server/src/plugins/app/build-lock';
import { Leadership } from '../../../server/src/plugins/app/leader';
import { submissions } from '../../../server/src/db/schema';
import { createPlayingTeam, submissionFor } from '../db/fixtures';
import { createTestApp, testEnv } from '../helpers/app';
import { startPrivateRedis } from '../helpers/private-services';
import { createScratchDatabase, engines } from '../helpers/database';

/**
 * The pieces that make several instances one platform, each shown in-process: the advisory-lock
 * leader (one at a time, a successor when it stops or its connection dies), the scoreboard build
 * lock (one build at a time, no request left unserved) and settings changes reaching other
 * instances. tests/server/multi/two-instances.test.ts shows them together in real processes.
 */
const [pglite] = engines();
const postgres = engines().find((engine) => engine.name === 'postgres');
const redisUrl = process.env.REDIS_URL;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
const quietLog = { info: () => {}, warn: () => {} };

describe('the leader judges leftovers', () => {
  test('a submission acknowledged long ago and never judged (its instance crashed) is judged without a restart', async () => {
    const ctx = await createTestApp(pglite!);
    try {
      const playing = await createPlayingTeam(ctx.app.db);
      // As a crashed instance leaves it: committed FlagSubmitted, in nobody's queue.
      const [row] = await ctx.app.db
        .insert(submissions)
        .values({ ...submissionFor(playing, 'flag{lost}'), submittedAt: new Date(Date.now() - 60_000) })
        .returning({ id: submissions.id });
      await until(
        'the leftover pass to judge it',
        async () => {
          const [judged] = await ctx.app.db
            .select({ status: submissions.status })
            .from(submissions)
            .where(eq(submissions.id, row!.id));
          return judged?.status !== 'FlagSubmitted';
        },
        20_000,
      );
    } finally {
      await ctx.close();
    }
  });
});

if (postgres) {
  describe('the timed-jobs leader (PostgreSQL advisory lock)', () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await postgres.open();
    });
    after(async () => database.close());

    test('one instance leads; another takes over when it stops; a lost connection frees the lock for a new election', async () => {
      const key = 4242;
      const runs = { first: 0, second: 0 };
      const first = new Leadership(() => tryHoldAdvisoryLock(database.db, key), quietLog);
      const second = new Leadership(() => tryHoldAdvisoryLock(database.db, key), quietLog);
      first.every('count', 20, async () => void (runs.first += 1));
      second.every('count', 20, async () => void (runs.second += 1));
      await first.start();
      await second.start();
      assert.equal(first.leading, true);
      assert.equal(second.leading, false);
      await until('a few runs on the leader', () => runs.first >= 3);
      assert.equal(runs.second, 0, 'the job never runs where the lock is not held');

      // A graceful stop gives the lock up; the other takes it at its next try.
      await first.stop();
      await until('the second to lead', () => second.leading);
      await until('the job to run on the new leader', () => runs.second >= 1);

      // A leader whose database connection dies loses the lock with it; a standby takes over.
      const third = new Leadership(() => tryHoldAdvisoryLock(database.db, key), quietLog);
      await third.start();
      assert.equal(third.leading, false);
      await database.db.execute(sql`
        select pg_terminate_backend(pid) from pg_locks
        where locktype = 'advisory' and granted and objid = ${key}
          and database = (select oid from pg_database where datname = current_database())`);
      await until('the leader to notice', () => !second.leading);
      // The lock is free again: whichever tries first (its old holder, on a new connection, or the
      // standby) leads, and only one.
      await until('a new leader', () => second.leading || third.leading);
      assert.equal(second.leading && third.leading, false);
      await second.stop();
      await third.stop();
    });
  });

  describe('the leader lock when a host vanishes without closing its connection', () => {
    let scratch: { url: string; drop(): Promise<void> };
    before(async () => {
      scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    });
    after(async () => scratch.drop());

    test('the lock’s session has short TCP keepalives: PostgreSQL frees a vanished leader’s lock in seconds', async () => {
      const handle = connectPostgres(scratch.url);
      const session = await connectLockSession(handle.db);
      try {
        assert.ok(session);
        const show = async (name: string) =>
          (await session.query<Record<string, string>>(`show ${name}`)).rows[0]![name];
        // Found dead after 10 s of silence and three unanswered probes 5 s apart (the default is 2 h 11 min).
        assert.equal(await show('tcp_keepalives_idle'), '10');
        assert.equal(await show('tcp_keepalives_interval'), '5');
        assert.equal(await show('tcp_keepalives_count'), '3');
        // And when an answer of its own goes unacknowledged, which keepalives do not cover.
        assert.equal(await show('tcp_user_timeout'), '25000');
      } finally {
        await session?.end();
        await handle.close();
      }
    });

    test('a leader whose database stops answering gives the lead up instead of leading unseen', async () => {
      const proxy = await startProxy(new URL(scratch.url));
      const viaProxy = new URL(scratch.url);
      viaProxy.port = String(proxy.port);
      const handle = connectPostgres(viaProxy.toString());
      const leader = new Leadership(() => tryHoldAdvisoryLock(handle.db, 4343), quietLog);
      try {
        await leader.start();
        assert.equal(leader.leading, true);
        // A partition: nothing passes any more, and nobody closes anything.
        proxy.blackhole();
        await until('the leader to notice its lock is unconfirmed', () => !leader.leading, 30_000);
      } finally {
        // The partition ends with the connections: the election tries in flight fail at once.
        proxy.close();
        await leader.stop();
        await handle.close();
      }
    });
  });
}

/**
 * A TCP relay to PostgreSQL that can stop relaying without closing anything, as a network partition
 * or a vanished host looks from either end.
 */
async function startProxy(target: URL): Promise<{ port: number; blackhole(): void; close(): void }> {
  let holed = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => void (holed || to.write(chunk)));
      from.on('error', () => undefined);
      from.on('close', () => holed || to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    blackhole: () => void (holed = true),
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

if (redisUrl) {
  describe('the scoreboard build lock (Redis)', () => {
    let redis: Redis;
    before(async () => {
      redis = new Redis(redisUrl, { lazyConnect: true });
      await redis.connect();
    });
    after(async () => {
      await redis.quit();
    });

    test('concurrent requests from several instances: one build at a time, each answered by a build begun after it', async () => {
      const prefix = `test-${randomBytes(6).toString('hex')}:`;
      // Five instances, each with its own lock object (and connection), as separate processes would have.
      const connections = Array.from({ length: 5 }, () => redis.duplicate());
      const locks = connections.map((connection) => createRedisBuildLock(connection, prefix));
      const log: string[] = [];
      let running = 0;
      let overlapped = false;
      let builds = 0;
      const build = async () => {
        const n = (builds += 1);
        running += 1;
        if (running > 1) overlapped = true;
        log.push(`start ${n}`);
        await sleep(50);
        log.push(`end ${n}`);
        running -= 1;
      };
      const results = await Promise.all(
        locks.map(async (lock, index) => {
          log.push(`ask ${index}`);
          const built = await lock.coalesce(7, build);
          log.push(`done ${index}`);
          return built;
        }),
      );
      assert.equal(overlapped, false, 'never two builds at once');
      assert.ok(builds >= 1 && builds < locks.length, `coalesced into fewer builds than requests (${builds})`);
      assert.ok(results.some(Boolean), 'some instance built');
      // Each request is answered only after a build that started after it asked has ended.
      for (let index = 0; index < locks.length; index += 1) {
        const asked = log.indexOf(`ask ${index}`);
        const done = log.indexOf(`done ${index}`);
        const served = log.some((entry, at) => {
          if (!entry.startsWith('start ') || at < asked) return false;
          const end = log.indexOf(`end ${entry.slice(6)}`);
          return end < done;
        });
        assert.ok(served, `request ${index} served by a fresh build: ${log.join(', ')}`);
      }
      for (const connection of connections) await connection.quit();
    });

    test('Redis lost while instances coordinate: each builds for itself, and none waits on Redis after', async () => {
      const own = await startPrivateRedis();
      const connections = [0, 1].map(() => {
        // As the app's cache connects: a command fails after one reconnection attempt.
        const connection = new Redis(own.url, { maxRetriesPerRequest: 1 });
        connection.on('error', () => undefined);
        return connection;
      });
      try {
        const [holder, waiter] = connections.map((connection) => createRedisBuildLock(connection, 'lost:'));
        const builds: string[] = [];
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let building!: () => void;
        const holding = new Promise<void>((resolve) => (building = resolve));
        const first = holder!.coalesce(1, async () => {
          builds.push('holder');
          building();
          await released;
        });
        await holding;
        // The other instance asks meanwhile and waits for the holder's lock.
        const second = waiter!.coalesce(1, async () => {
          builds.push('waiter');
        });
        await sleep(100);
        await own.stop();
        release();
        assert.deepEqual(await Promise.all([first, second]), [true, true], 'each built for itself');
        assert.ok(builds.includes('waiter'), `the waiter built: ${builds.join(', ')}`);

        // Known to be lost, Redis is not asked at all: the build happens at once.
        await until('the connection to be lost', () => connections[0]!.status !== 'ready');
        const before = builds.length;
        assert.equal(await holder!.coalesce(2, async () => void builds.push('alone')), true);
        assert.deepEqual(builds.slice(before), ['alone']);
      } finally {
        for (const connection of connections) connection.disconnect();
        await own.stop();
      }
    });
  });
}

if (postgres && redisUrl) {
  describe('two in-process instances on one PostgreSQL and one Redis', () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await postgres.open();
    });
    after(async () => database.close());

    /** A second, third… app on the same database and Redis key space, as another server process would be. */
    const starter = () => {
      const prefix = `test-${randomBytes(6).toString('hex')}:`;
      const shared = { ...database, close: async () => {} };
      return async () => {
        const app = await buildApp({
          env: testEnv({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix }),
          database: shared,
          logger: false,
        });
        await app.ready();
        return app;
      };
    };

    test('a settings change saved on one instance is seen by the other at once', async () => {
      const start = starter();
      const one = await start();
      const two = await start();
      try {
        // The second caches what it read.
        assert.equal((await two.settings.get()).globalConfig.title, 'GZ');
        await one.settings.update({ globalConfig: { title: 'Shared CTF' } });
        await until('the other instance to drop its copy', async () => {
          return (await two.settings.get()).globalConfig.title === 'Shared CTF';
        });
        const config = await two.inject({ method: 'GET', url: '/api/config' });
        assert.equal(config.json<{ title: string }>().title, 'Shared CTF');
      } finally {
        await one.close();
        await two.close();
      }
    });

    test('what a stopping instance still had queued is judged by another at once', async () => {
      const start = starter();
      const one = await start();
      const two = await start();
      try {
        const playing = await createPlayingTeam(database.db);
        // The first instance's judge is held: what it acknowledges waits in its queue.
        await one.flagChecker.stop();
        const rows = await database.db
          .insert(submissions)
          .values([submissionFor(playing, 'flag{a}'), submissionFor(playing, 'flag{b}')])
          .returning({ id: submissions.id });
        for (const row of rows) one.flagChecker.enqueue(row.id);
        await one.close();
        // Fresh submissions: the leftover pass leaves them alone for 10 s, so only the hand-over judges them this soon.
        await until(
          'the other instance to judge them',
          async () => {
            const left = await database.db
              .select({ id: submissions.id })
              .from(submissions)
              .where(
                and(
                  inArray(
                    submissions.id,
                    rows.map((row) => row.id),
                  ),
                  eq(submissions.status, 'FlagSubmitted'),
                ),
              );
            return left.length === 0;
          },
          8_000,
        );
      } finally {
        await two.close();
      }
    });
  });
}
