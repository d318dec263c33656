import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../../server/src/app';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { loadEnv, type Env } from '../../../server/src/env';
import type { Engine } from './database';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  env: Env;
  close(): Promise<void>;
}

/** A test environment: a throw-away data dir and no built client unless the test provides one. */
export function testEnv(overrides: Record<string, string> = {}): Env {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-test-'));
  return loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'no-client'),
    // Only the container tests talk to an engine; the rest must not depend on one running.
    CONTAINER_PROVIDER: 'None',
    // Test files run in parallel against one Redis, each on its own database: game ids repeat, so
    // each app gets a key space of its own (boards, build locks, hub and signal channels).
    REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:`,
    // Every injected request comes from 127.0.0.1, which the limits no longer exempt: tests of the
    // limits turn them on (`rateLimit: { disabled: false }`).
    DISABLE_RATE_LIMIT: 'true',
    // A test machine's disk may well hold less than the 1 GiB a capture leaves free by default; the
    // tests of that guard set it themselves.
    CAPTURE_MIN_FREE_MB: '0',
    ...overrides,
  });
}

/** Builds the real app on a fresh database (or the one given) of the given engine; `inject()` talks to it without a socket. */
export async function createTestApp(
  engine: Engine,
  options: { env?: Env; database?: DatabaseHandle } & Partial<Omit<BuildOptions, 'env' | 'database'>> = {},
): Promise<TestApp> {
  const env = options.env ?? testEnv();
  // A database handed in (a second instance on the same database) is closed by whoever opened it.
  const database = options.database ?? (await engine.open());
  const app = await buildApp({ ...options, env, database, logger: false });
  await app.ready();
  return {
    app,
    database,
    env,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(env.dataDir, { recursive: true, force: true });
    },
  };
}
