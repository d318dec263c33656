import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { installationId } from '../../modules/instances';

/**
 * Short-lived shared state (PoW challenges today; more later). In-process by default; in Redis when
 * REDIS_URL is set, so several server instances behind a load balancer see the same values
 * (architecture §5). Values are strings: callers serialise.
 */
export interface Cache {
  get(key: string): Promise<string | undefined>;
  /**
   * A Buffer is the UTF-8 text as bytes: a big value (a scoreboard) already encoded goes to Redis as
   * it is, since writing a string to a socket re-encodes it on the event loop, much more slowly.
   */
  set(key: string, value: string | Buffer, ttlMs: number): Promise<void>;
  /** Reads and deletes in one step, so a single-use value can be taken exactly once. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /** Adds `delta` to a counter (missing = 0) and returns the new value; the counter expires `ttlMs` after its last change. */
  increment(key: string, delta: number, ttlMs: number): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    cache: Cache;
    /** The shared Redis connection when REDIS_URL is set (rate limits use it too). */
    redis: Redis | undefined;
    /**
     * Starts every Redis key and channel name this platform uses: REDIS_KEY_PREFIX, then the
     * database's installation id. Built once here, so no key can leave either out: a platform started
     * on a fresh database never reads what another database's platform left in the same Redis
     * (scoreboards of reused game ids, sessions, counters), while instances sharing one database do
     * share their keys.
     */
    redisPrefix: string;
    /** The database's identity (the `installation` row written by the first migration). */
    installationId: string;
  }
}

export function createMemoryCache(now: () => number = Date.now): Cache {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  let nextSweep = now() + 60_000;
  // Expired entries are dropped when read, and swept once a minute so unread ones cannot pile up.
  const sweep = () => {
    const time = now();
    if (time < nextSweep) return;
    nextSweep = time + 60_000;
    for (const [key, entry] of entries) if (entry.expiresAt <= time) entries.delete(key);
  };
  const read = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  };
  return {
    async get(key) {
      return read(key);
    },
    async set(key, value, ttlMs) {
      sweep();
      entries.set(key, { value: typeof value === 'string' ? value : value.toString('utf8'), expiresAt: now() + ttlMs });
    },
    async take(key) {
      const value = read(key);
      entries.delete(key);
      return value;
    },
    async delete(key) {
      entries.delete(key);
    },
    async increment(key, delta, ttlMs) {
      sweep();
      const value = Number(read(key) ?? 0) + delta;
      entries.set(key, { value: String(value), expiresAt: now() + ttlMs });
      return value;
    },
  };
}

export function createRedisCache(redis: Redis, prefix = 'gzctf:cache:'): Cache {
  return {
    async get(key) {
      return (await redis.get(prefix + key)) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await redis.set(prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async take(key) {
      return (await redis.getdel(prefix + key)) ?? undefined;
    },
    async delete(key) {
      await redis.del(prefix + key);
    },
    async increment(key, delta, ttlMs) {
      const [[, value] = []] =
        (await redis
          .multi()
          .incrby(prefix + key, delta)
          .pexpire(prefix + key, Math.max(1, Math.ceil(ttlMs)))
          .exec()) ?? [];
      return Number(value);
    },
  };
}

/**
 * The shared cache while Redis answers, this process's own while it does not (a Redis restart or
 * outage must not fail requests: a scoreboard is then built and served per instance, as without
 * REDIS_URL). What this process writes or deletes during the outage is missing from Redis or newer
 * than what Redis holds, so when Redis is back those keys are deleted there (the next reader
 * rebuilds them) and the in-process values are dropped.
 */
export function createFallbackCache(
  redis: Redis,
  shared: Cache,
  prefix: string,
  onOutage: (error: unknown) => void = () => {},
): Cache {
  let local = createMemoryCache();
  const changed = new Set<string>();
  let down = false;
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    const keys = [...changed];
    changed.clear();
    local = createMemoryCache();
    if (keys.length) void redis.del(...keys.map((key) => prefix + key)).catch(() => undefined);
  });
  // `local` is read at each call: a reconnection replaces it with an empty one.
  const attempt = async <T>(key: string, writes: boolean, run: (cache: Cache) => Promise<T>) => {
    // Not connected: answer at once rather than wait for the reconnection attempts to give up.
    if (redis.status === 'ready') {
      try {
        return await run(shared);
      } catch (error) {
        onOutage(error);
      }
    }
    down = true;
    if (writes) changed.add(key);
    return run(local);
  };
  return {
    get: (key) => attempt(key, false, (cache) => cache.get(key)),
    set: (key, value, ttlMs) => attempt(key, true, (cache) => cache.set(key, value, ttlMs)),
    take: (key) => attempt(key, true, (cache) => cache.take(key)),
    delete: (key) => attempt(key, true, (cache) => cache.delete(key)),
    increment: (key, delta, ttlMs) => attempt(key, true, (cache) => cache.increment(key, delta, ttlMs)),
  };
}

export default fp(
  async function cache(app: FastifyInstance) {
    const url = app.env.redisUrl;
    const id = await installationId(app.db);
    app.decorate('installationId', id);
    app.decorate('redisPrefix', `${app.env.redisKeyPrefix}${id}:`);
    if (!url) {
      app.decorate('redis', undefined);
      app.decorate('cache', createMemoryCache());
      return;
    }
    // Commands fail fast (instead of queueing forever) while Redis is unreachable; the connection
    // keeps retrying in the background. Without an 'error' listener ioredis reports every failed
    // reconnect as an unhandled error event.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: true });
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));
    await redis.connect();
    app.decorate('redis', redis);
    const prefix = `${app.redisPrefix}cache:`;
    let warned = false;
    redis.on('ready', () => (warned = false));
    app.decorate(
      'cache',
      createFallbackCache(redis, createRedisCache(redis, prefix), prefix, (error) => {
        if (warned) return;
        warned = true;
        app.log.warn({ err: error }, 'redis unavailable: caching in this process until it is back');
      }),
    );
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'cache', dependencies: ['db'] },
);
