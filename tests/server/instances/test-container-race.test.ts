import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { eq, isNull } from 'drizzle-orm';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { challenges, containers } from '../../../server/src/db/schema';
import type { Env } from '../../../server/src/env';
import { HttpError } from '../../../server/src/lib/http-error';
import type { ContainerBackend, ContainerSpec } from '../../../server/src/modules/instances/backend';
import { InstanceService } from '../../../server/src/modules/instances/instances.service';
import { createLocalGate } from '../../../server/src/modules/instances/start-gate';
import type { SettingsStore } from '../../../server/src/modules/settings';
import { DEFAULT_SETTINGS } from '../../../server/src/modules/settings/settings.defaults';
import { createChallenge, createGame, createUser } from '../db/fixtures';
import { testEnv } from '../helpers/app';
import { engines } from '../helpers/database';

/** An engine in memory: which containers it runs. */
function fakeBackend() {
  const running = new Set<string>();
  let next = 0;
  const backend: ContainerBackend = {
    kind: 'Docker',
    init: async () => {},
    async create(spec: ContainerSpec) {
      next += 1;
      const containerId = `fake-${next}`;
      running.add(containerId);
      return { containerId, ip: '10.0.0.2', port: spec.port, publicIp: null, publicPort: null };
    },
    async destroy(containerId: string) {
      running.delete(containerId);
    },
    list: async () => [...running].map((containerId) => ({ containerId, rowId: null, running: true })),
    close: async () => {},
  };
  return { backend, running };
}

/**
 * Settings whose first `count` reads return together: the requests reading them have each done
 * everything before that read when any of them goes on.
 */
function settingsMeetingAt(count: number): SettingsStore {
  let arrived = 0;
  let release!: () => void;
  const together = new Promise<void>((resolve) => (release = resolve));
  return {
    async get() {
      arrived += 1;
      if (arrived === count) release();
      if (arrived <= count) await together;
      return structuredClone(DEFAULT_SETTINGS);
    },
    update: async () => structuredClone(DEFAULT_SETTINGS),
    invalidate: () => {},
    onChange: () => {},
  };
}

for (const engine of engines()) {
  describe(`admin test containers started at once (${engine.name})`, () => {
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

    test('two starts for one challenge leave one container running, the one the challenge points at', async () => {
      const { db } = database;
      const { backend, running } = fakeBackend();
      const service = new InstanceService({
        db,
        env,
        settings: settingsMeetingAt(2),
        backend,
        ready: async () => {},
        gate: createLocalGate(4),
        log: { warn: () => {}, info: () => {} },
      });
      const game = await createGame(db);
      const challenge = await createChallenge(db, game.id, {
        type: 'StaticContainer',
        containerImage: 'example/challenge:1',
        containerExposePort: 80,
      });
      const admin = await createUser(db, { role: 'Admin' });
      const user = { id: admin.id, userName: admin.userName, email: admin.email, role: admin.role };

      const results = await Promise.allSettled([
        service.startTest(game.id, challenge.id, user),
        service.startTest(game.id, challenge.id, user),
      ]);
      assert.ok(
        results.some((result) => result.status === 'fulfilled'),
        'one start at least succeeds',
      );
      for (const result of results) {
        if (result.status === 'rejected') {
          // The replaced start, stopped while it was starting.
          assert.ok(result.reason instanceof HttpError && result.reason.statusCode === 400, String(result.reason));
        }
      }

      const rows = await db.select().from(containers).where(isNull(containers.gameInstanceId));
      assert.equal(rows.length, 1, 'one test container row');
      const [pointed] = await db
        .select({ testContainerId: challenges.testContainerId })
        .from(challenges)
        .where(eq(challenges.id, challenge.id));
      assert.equal(pointed!.testContainerId, rows[0]!.id);
      assert.deepEqual([...running], [rows[0]!.containerId], 'only the remembered container runs');
    });
  });
}
