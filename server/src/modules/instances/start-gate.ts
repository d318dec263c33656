import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Lets a fixed number of container starts run at once and queues the rest, so the burst of every
 * team pressing "start" when a game opens reaches the engine at a pace it can take instead of all at
 * once (and nobody is refused). Waiters go in arrival order within a platform instance.
 */
export interface StartGate {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Starts running now and waiting (tests, bench). */
  stats(): { running: number; waiting: number };
  close(): Promise<void>;
}

/** One platform instance: a FIFO semaphore in memory. */
export function createLocalGate(limit: number): StartGate {
  let running = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    running -= 1;
    const next = queue.shift();
    if (next) {
      running += 1;
      next();
    }
  };
  return {
    async run(task) {
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    stats: () => ({ running, waiting: queue.length }),
    async close() {},
  };
}

// Holders are members of a sorted set scored by lease expiry (the server's clock, so instances'
// clocks need not agree); expired leases (a crashed instance) are dropped before counting.
const ACQUIRE = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
  return 1
end
return 0`;

const RENEW = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[1]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
end
return 1`;

export interface RedisGateOptions {
  redis: Redis;
  /** The sorted set's key; scope it to the installation. */
  key: string;
  limit: number;
  /** How long a holder's slot lasts without renewal (renewed while it runs). */
  leaseMs?: number;
  /** How often the head of the queue retries when nobody announced a release. */
  retryMs?: number;
}

/**
 * Several platform instances sharing Redis share one limit. The local queue's head polls for a slot
 * and is woken early by a release published on a channel; a holder renews its lease while its task
 * runs, so a slow start (an image pull) keeps its place and a crashed instance's slots expire.
 *
 * While Redis is down (not connected, or a call fails) a start goes through this instance's own
 * gate with the same limit instead, as the cache falls back to memory: an outage must not refuse
 * every start. The limit then holds per instance only until Redis is back.
 */
export function createRedisGate(options: RedisGateOptions): StartGate {
  const { redis, key, limit } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const retryMs = options.retryMs ?? 200;
  const channel = `${key}:released`;
  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined);
  let wake: (() => void) | undefined;
  subscriber.on('message', () => wake?.());
  // Asked again by the next start when it failed (Redis was down then).
  let subscribed: Promise<unknown> | undefined;
  const subscribe = () =>
    (subscribed ??= subscriber.subscribe(channel).catch((error: unknown) => {
      subscribed = undefined;
      throw error;
    }));
  const local = createLocalGate(1);
  const fallback = createLocalGate(limit);
  let running = 0;
  let waiting = 0;

  async function acquire(token: string): Promise<void> {
    await subscribe();
    for (;;) {
      // Gone while this start waited: it falls back rather than queue its calls for the reconnection.
      if (redis.status !== 'ready') throw new Error('Redis is not connected');
      if ((await redis.eval(ACQUIRE, 1, key, limit, leaseMs, token)) === 1) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  return {
    async run(task) {
      // Not connected: at once, rather than wait for the reconnection attempts to give up.
      if (redis.status !== 'ready') return fallback.run(task);
      const token = randomUUID();
      waiting += 1;
      // Only the head of this instance's queue polls Redis.
      try {
        await local.run(() => acquire(token));
      } catch {
        // The task has not run: it runs once, here.
        return fallback.run(task);
      } finally {
        waiting -= 1;
      }
      running += 1;
      const renew = setInterval(
        () => void redis.eval(RENEW, 1, key, leaseMs, token).catch(() => undefined),
        leaseMs / 3,
      );
      try {
        return await task();
      } finally {
        clearInterval(renew);
        running -= 1;
        await redis
          .zrem(key, token)
          .then(() => redis.publish(channel, token))
          .catch(() => undefined);
      }
    },
    stats: () => {
      const own = fallback.stats();
      return { running: running + own.running, waiting: waiting + own.waiting };
    },
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
