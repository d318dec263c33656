import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Coalesces the regeneration of one game's scoreboard across server instances sharing Redis.
 *
 * A request marks the game dirty, then tries to become its builder (`SET NX PX` with a token). The
 * builder regenerates while the mark is there (each run clears it first, so a request during a run
 * causes exactly one more); the others wait for the builder to finish and read the shared copy.
 * Marking before trying and looking at the mark again after each release means no request is ever
 * left unserved: either its instance takes the lock, or the holder sees the mark before or after
 * letting go. The lock expires if its holder dies mid-run (and is renewed while a run is long).
 * Without Redis (known to be lost, or failing at any step) an instance builds for itself.
 */
export interface BuildLock {
  /** Resolves once a board built after this call began is in the shared cache: true when built here. */
  coalesce(gameId: number, build: () => Promise<void>): Promise<boolean>;
}

const LEASE_MS = 30_000;
const POLL_MS = 25;

// Deletes or extends the lock only while it still holds our token (it may have expired and moved on).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** ioredis states after a connection was lost (or closed): its commands would only wait and fail. */
const LOST = new Set(['reconnecting', 'close', 'end']);

export function createRedisBuildLock(redis: Redis, prefix: string): BuildLock {
  const lockKey = (gameId: number) => `${prefix}scoreboard-build:${gameId}`;
  const dirtyKey = (gameId: number) => `${prefix}scoreboard-dirty:${gameId}`;

  async function buildWhileDirty(gameId: number, token: string, build: () => Promise<void>): Promise<boolean> {
    const renew = setInterval(
      () => void redis.eval(RENEW, 1, lockKey(gameId), token, LEASE_MS).catch(() => undefined),
      LEASE_MS / 3,
    );
    let built = false;
    try {
      while ((await redis.del(dirtyKey(gameId))) === 1) {
        try {
          await build();
        } catch (error) {
          // Unserved: whoever comes next (another waiter included) tries again.
          await redis.set(dirtyKey(gameId), '1', 'PX', LEASE_MS).catch(() => undefined);
          throw error;
        }
        built = true;
      }
    } finally {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, lockKey(gameId), token).catch(() => undefined);
    }
    return built;
  }

  /** One round of coordination: mark, then build under the lock or wait for its holder, until unmarked. */
  async function coordinate(gameId: number, build: () => Promise<void>): Promise<boolean> {
    await redis.set(dirtyKey(gameId), '1', 'PX', LEASE_MS);
    let built = false;
    for (;;) {
      const token = randomUUID();
      if ((await redis.set(lockKey(gameId), token, 'PX', LEASE_MS, 'NX')) === 'OK') {
        built = (await buildWhileDirty(gameId, token, build)) || built;
      } else {
        while ((await redis.exists(lockKey(gameId))) === 1) await sleep(POLL_MS);
      }
      if ((await redis.exists(dirtyKey(gameId))) === 0) return built;
    }
  }

  return {
    async coalesce(gameId, build) {
      // Redis lost (not the first connection, which queues commands until it is up): build here at
      // once rather than wait for the reconnection attempts to fail each command.
      if (LOST.has(redis.status)) {
        await build();
        return true;
      }
      let buildFailed = false;
      try {
        return await coordinate(gameId, async () => {
          try {
            await build();
          } catch (error) {
            buildFailed = true;
            throw error;
          }
        });
      } catch (error) {
        if (buildFailed) throw error;
        // Redis failed at any step (it went down meanwhile): this instance builds for itself rather
        // than serve nothing. A failure left unhandled here had ended the regeneration with the
        // board not rebuilt, so a solve judged then stayed off it until the next solve.
        await build();
        return true;
      }
    },
  };
}

/**
 * The app's build lock when REDIS_URL is set (undefined otherwise: one instance builds for itself).
 * Each build is announced, and every other instance calls `forget(gameId)` at once, so none serves
 * its in-process copy of the old board any longer.
 */
export function sharedBuildLock(app: FastifyInstance, forget: (gameId: number) => void): BuildLock | undefined {
  if (!app.redis) return undefined;
  const shared = createRedisBuildLock(app.redis, app.redisPrefix);
  const self = randomUUID();
  app.signals.subscribe('scoreboard', (payload) => {
    const { gameId, from } = payload as { gameId: number; from: string };
    if (from !== self) forget(gameId);
  });
  return {
    coalesce: (gameId, build) =>
      shared.coalesce(gameId, async () => {
        await build();
        await app.signals.publish('scoreboard', { gameId, from: self }).catch(() => undefined);
      }),
  };
}
