import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db, DatabaseHandle } from '../../../server/src/db/client';
import { containers, gameInstances, participations, userParticipations } from '../../../server/src/db/schema';
import type { Env } from '../../../server/src/env';
import { HttpError } from '../../../server/src/lib/http-error';
import type { SessionUser } from '../../../server/src/plugins/app/auth';
import { sweepExpired } from '../../../server/src/modules/instances/instances.maintenance';
import { InstanceService } from '../../../server/src/modules/instances/instances.service';
import { createLocalGate, createRedisGate, type StartGate } from '../../../server/src/modules/instances/start-gate';
import type { SettingsStore } from '../../../server/src/modules/settings';
import { DEFAULT_SETTINGS } from '../../../server/src/modules/settings/settings.defaults';
import { createChallenge, createGame, createParticipation, createTeam, createUser } from '../db/fixtures';
import { testEnv } from '../helpers/app';
import { engines } from '../helpers/database';
import { eventually, memoryEngine } from './support';

const MINUTE = 60_000;
const quiet = { warn: () => {}, info: () => {} };

const settings: SettingsStore = {
  get: async () => structuredClone(DEFAULT_SETTINGS),
  update: async () => structuredClone(DEFAULT_SETTINGS),
  invalidate: () => {},
  onChange: () => {},
};

/** A Redis client whose every call fails: the server went away while it still looked connected. */
function failingRedis(status: string) {
  const calls = { eval: 0 };
  const client = {
    status,
    duplicate: () => client,
    on: () => client,
    subscribe: async () => 1,
    eval: async () => {
      calls.eval += 1;
      throw new Error('Connection is closed.');
    },
    zrem: async () => 0,
    publish: async () => 0,
    quit: async () => 'OK',
    disconnect: () => {},
  };
  return { redis: client as unknown as Redis, calls };
}

/** A user whose team is accepted into the game. */
async function playerOf(db: Db, gameId: number): Promise<SessionUser> {
  const user = await createUser(db);
  const team = await createTeam(db, user.id);
  const participation = await createParticipation(db, gameId, team.id);
  await db.update(participations).set({ status: 'Accepted' }).where(eq(participations.id, participation.id));
  await db.insert(userParticipations).values({ userId: user.id, gameId, participationId: participation.id });
  return { id: user.id, userName: user.userName, email: user.email, role: user.role };
}

const isHttp = (status: number) => (error: unknown) => error instanceof HttpError && error.statusCode === status;

for (const engine of engines()) {
  describe(`container starts, expiry and the gate (${engine.name})`, () => {
    let database: DatabaseHandle;
    let env: Env;
    before(async () => {
      database = await engine.open();
      env = testEnv();
    });
    after(async () => {
      await database.close();
      fs.rmSync(env.dataDir, { recursive: true, force: true });
    });

    /** A started game with an enabled container challenge, and a service on `engine` whose clock is `clock.now`. */
    async function setup(options: { gate?: StartGate; startRenewMs?: number } = {}) {
      const { db } = database;
      const clock = { now: Date.now() };
      const memory = memoryEngine();
      const gate = options.gate ?? createLocalGate(1);
      const service = new InstanceService({
        db,
        env,
        settings,
        backend: memory.backend,
        ready: async () => {},
        gate,
        log: quiet,
        now: () => clock.now,
        ...(options.startRenewMs ? { startRenewMs: options.startRenewMs } : {}),
      });
      const game = await createGame(db, { containerCountLimit: 0 });
      const challenge = await createChallenge(db, game.id, {
        type: 'DynamicContainer',
        isEnabled: true,
        containerImage: 'example/challenge:1',
        containerExposePort: 80,
      });
      const sweep = () => sweepExpired({ db, backend: memory.backend, service, log: quiet, now: () => clock.now });
      const rowOf = async (user: SessionUser) => {
        const [row] = await db
          .select({ container: containers })
          .from(containers)
          .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
          .innerJoin(userParticipations, eq(userParticipations.participationId, gameInstances.participationId))
          .where(eq(userParticipations.userId, user.id));
        return row?.container;
      };
      const start = (user: SessionUser) => service.create(user, game.id, challenge.id);
      return { db, clock, memory, gate, service, game, challenge, sweep, rowOf, start };
    }

    test('starts queued or in the engine for longer than the stale limit are not swept, and all finish', async () => {
      const { db, clock, memory, gate, sweep, rowOf, start, game } = await setup({ startRenewMs: 5 });
      const [first, second] = [await playerOf(db, game.id), await playerOf(db, game.id)];
      const held = memory.hold('create');
      const firstStart = start(first);
      await held.reached;
      const secondStart = start(second);
      await eventually(async () => gate.stats().waiting === 1);

      // Eleven minutes later (a long queue at a game's opening, a large image's first pull): both
      // starts are still in progress and have renewed their rows since.
      clock.now += 11 * MINUTE;
      await eventually(async () => {
        const rows = [await rowOf(first), await rowOf(second)];
        return rows.every((row) => row?.status === 'Pending' && row.startedAt.getTime() === clock.now);
      });
      await sweep();
      held.release();

      const [one, two] = await Promise.all([firstStart, secondStart]);
      assert.equal(one.status, 'Running');
      assert.equal(two.status, 'Running');
      assert.equal(memory.created.length, 2);
      assert.equal(memory.running.size, 2);
    });

    test('a start destroyed while it waits in the gate makes no engine call', async () => {
      const { db, clock, memory, gate, service, start, game, challenge } = await setup();
      const [first, second] = [await playerOf(db, game.id), await playerOf(db, game.id)];
      const held = memory.hold('create');
      const firstStart = start(first);
      await held.reached;
      const secondStart = start(second);
      const secondResult = secondStart.then(
        () => 'started',
        (error: unknown) => error,
      );
      await eventually(async () => gate.stats().waiting === 1);
      // Past the 10 s throttle, the second team changes its mind while its start waits its turn.
      clock.now += 11_000;
      await service.destroy(second, game.id, challenge.id);
      held.release();

      assert.equal((await firstStart).status, 'Running');
      const outcome = await secondResult;
      assert.ok(isHttp(400)(outcome), String(outcome));
      assert.equal(memory.created.length, 1, 'only the first start reached the engine');
      assert.equal(memory.running.size, 1);
    });

    test('a destroy of a starting container keeps its throttle after the start fails', async () => {
      const { db, clock, memory, service, start, game, challenge, rowOf } = await setup();
      const player = await playerOf(db, game.id);
      const held = memory.hold('create');
      const starting = start(player);
      const result = starting.then(
        () => 'started',
        (error: unknown) => error,
      );
      await held.reached;
      clock.now += 11_000;
      await service.destroy(player, game.id, challenge.id);
      held.release();
      assert.ok(isHttp(400)(await result));
      assert.equal(await rowOf(player), undefined);
      assert.equal(memory.running.size, 0, 'the late container was removed');

      // The destroy was an operation of its own: the next one within 10 s of it is refused.
      await assert.rejects(start(player), isHttp(429));
    });

    test('an extension while the sweep destroys the expired container is refused', async () => {
      const { db, clock, memory, service, sweep, start, game, challenge, rowOf } = await setup();
      // The sweep takes every expired row: the earlier tests' containers go first.
      await db.delete(containers);
      const player = await playerOf(db, game.id);
      const started = await start(player);
      assert.equal(started.status, 'Running');

      clock.now += (DEFAULT_SETTINGS.containerPolicy.defaultLifetime + 1) * MINUTE;
      const held = memory.hold('destroy');
      const sweeping = sweep();
      await held.reached;
      await assert.rejects(service.extend(player, game.id, challenge.id), isHttp(400));
      held.release();

      assert.equal(await sweeping, 1);
      assert.equal(await rowOf(player), undefined);
      assert.equal(memory.running.size, 0);
    });

    test('with Redis down, a start goes through the in-process gate instead of failing', async () => {
      for (const status of ['ready', 'reconnecting']) {
        const { redis, calls } = failingRedis(status);
        const gate = createRedisGate({ redis, key: 'test:container-starts', limit: 2, retryMs: 5 });
        const { db, memory, start, game } = await setup({ gate });
        const player = await playerOf(db, game.id);
        const info = await start(player);
        assert.equal(info.status, 'Running', status);
        assert.equal(memory.created.length, 1, status);
        assert.deepEqual(gate.stats(), { running: 0, waiting: 0 });
        // Not connected: Redis is not even asked.
        if (status !== 'ready') assert.equal(calls.eval, 0);
        await gate.close();
      }
    });
  });
}
