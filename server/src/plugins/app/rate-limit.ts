import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../lib/http-error';
import { keyedSemaphores, type SemaphoreTicket } from '../../lib/semaphore';
import bruteForce, { addressScope, type BruteForceOptions } from './brute-force';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route outside the contract that counts in the global per-client limit all the same: the
     * hubs' negotiation and WebSocket upgrade (an open socket's messages are not requests).
     */
    clientLimited?: boolean;
  }
}

/**
 * GZCTF's rate limits (reference §5.16) on @fastify/rate-limit.
 *
 * - Global: per signed-in user, else per client address (an IPv6 client by its /64), 150 requests a
 *   minute on every API call, and on the hubs' negotiations and upgrades (`clientLimited` routes).
 *   GZCTF exempts loopback clients; we do not: behind a reverse proxy on the same host without
 *   TRUST_PROXY every visitor looks like 127.0.0.1, and the exemption would limit nobody. (Behind a
 *   proxy set TRUST_PROXY, or everybody shares the proxy's budget.) Tests and benchmarks turn limits
 *   off explicitly with DISABLE_RATE_LIMIT.
 * - Guessing (passwords, invitation codes, recovery mails, registrations) is limited per account and
 *   per address with growing delays: brute-force.ts.
 * - Named policies from the contract's `x-rate-limit` count per client too, in addition to the global
 *   limit, and only requests the route admits (role checked, body read and valid). GZCTF keeps one
 *   bucket per policy for everyone, counted before anything else: there anyone, signed out, could
 *   spend the platform's flag submissions (100 per 10 s for all teams) or registrations (20 per 150
 *   s for everyone), and one slow team-creation body held the only Concurrency slot.
 *
 * @fastify/rate-limit counts fixed windows. GZCTF's sliding windows become fixed windows of the same
 * size, and its token buckets a window holding the bucket's size that lasts as long as a full refill,
 * so bursts and the long-run rate both match:
 *
 * | policy       | GZCTF                              | here               |
 * | ------------ | ---------------------------------- | ------------------ |
 * | Global       | sliding 150 / 60 s                 | 150 per 60 s       |
 * | Register     | sliding 20 / 150 s                 | 20 per 150 s       |
 * | Query        | bucket 100, +10 every 10 s         | 100 per 100 s      |
 * | PowChallenge | bucket 40, +5 every 30 s           | 40 per 240 s       |
 * | Container    | bucket 120, +30 every 10 s         | 120 per 40 s       |
 * | Submit       | bucket 100, +50 every 5 s          | 100 per 10 s       |
 * | Concurrency  | 1 at a time, queue 20              | the same, per client and server instance |
 *
 * Counters live in Redis when REDIS_URL is set (shared by all instances), in-process otherwise.
 */
export interface WindowLimit {
  max: number;
  windowMs: number;
}

export type WindowPolicy = 'Register' | 'Query' | 'PowChallenge' | 'Container' | 'Submit';

export interface RateLimitOptions {
  /** Off entirely (DISABLE_RATE_LIMIT). */
  disabled?: boolean;
  global?: WindowLimit;
  policies?: Partial<Record<WindowPolicy, WindowLimit>>;
  concurrency?: { concurrent: number; queue: number };
  /** Overrides of the brute-force policies (tests use tiny ones). */
  attempts?: BruteForceOptions['attempts'];
  /** Prefix of the Redis keys, so separate deployments (or tests) sharing a Redis do not mix counts. */
  namespace?: string;
}

export const DEFAULT_RATE_LIMITS = {
  global: { max: 150, windowMs: 60_000 },
  policies: {
    Register: { max: 20, windowMs: 150_000 },
    Query: { max: 100, windowMs: 100_000 },
    PowChallenge: { max: 40, windowMs: 240_000 },
    Container: { max: 120, windowMs: 40_000 },
    Submit: { max: 100, windowMs: 10_000 },
  },
  concurrency: { concurrent: 1, queue: 20 },
} as const satisfies Required<Pick<RateLimitOptions, 'global' | 'policies' | 'concurrency'>>;

export function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

function reject(reply: FastifyReply, seconds: number, max?: number): never {
  const wait = Math.max(1, seconds);
  reply.header('retry-after', wait);
  if (max !== undefined) {
    reply.header('x-ratelimit-limit', max);
    reply.header('x-ratelimit-remaining', 0);
    reply.header('x-ratelimit-reset', wait);
  }
  throw new HttpError(429, 'error.tooManyRequests', { seconds: wait });
}

const kTicket = Symbol('concurrencyTicket');

/** Whose budget a request spends: the signed-in user's, else its address's. */
const clientOf = (request: FastifyRequest) => request.user?.id ?? addressScope(request.ip);

interface StoreResult {
  current: number;
  ttl: number;
}

/**
 * In-process fixed windows for @fastify/rate-limit. Its bundled LocalStore hands every caller the same
 * mutable counter object, so requests arriving together all read the final count and are all refused
 * once the last one exceeds the limit; this store returns a snapshot per call.
 */
export class MemoryStore {
  /** Keys are users and addresses; past this many, the oldest windows are forgotten. */
  static capacity = 10_000;
  private readonly windows = new Map<string, { count: number; startedAt: number }>();

  incr(key: string, callback: (error: Error | null, result: StoreResult) => void, timeWindow: number): void {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.startedAt + timeWindow <= now) {
      window = { count: 0, startedAt: now };
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > MemoryStore.capacity) this.windows.delete(this.windows.keys().next().value!);
    }
    window.count++;
    callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
  }

  child(): MemoryStore {
    return new MemoryStore();
  }
}

export default fp(
  async function rateLimits(app: FastifyInstance, options: RateLimitOptions) {
    const disabled = options.disabled ?? app.env.disableRateLimit;
    await app.register(bruteForce, { disabled, attempts: options.attempts });
    if (disabled) return;
    const globalLimit = options.global ?? DEFAULT_RATE_LIMITS.global;
    const policies = { ...DEFAULT_RATE_LIMITS.policies, ...options.policies };
    const concurrency = options.concurrency ?? DEFAULT_RATE_LIMITS.concurrency;

    await app.register(rateLimit, {
      global: false,
      ...(app.redis ? { redis: app.redis } : { store: MemoryStore as never }),
      nameSpace: `${app.redisPrefix}rl:${options.namespace ?? ''}:`,
      // A Redis outage lets requests through rather than taking the platform down with it.
      skipOnError: true,
    });

    const perClient = app.createRateLimit({
      max: globalLimit.max,
      timeWindow: globalLimit.windowMs,
      keyGenerator: (request: FastifyRequest) => `global:${clientOf(request)}`,
    });
    const named = new Map(
      Object.entries(policies).map(([name, limit]) => [
        name,
        app.createRateLimit({
          max: limit.max,
          timeWindow: limit.windowMs,
          keyGenerator: (request: FastifyRequest) => `policy:${name}:${clientOf(request)}`,
        }),
      ]),
    );
    const semaphores = keyedSemaphores(concurrency.concurrent, concurrency.queue);

    // Runs after the auth plugin's onRequest hook (registered earlier), so the user is known.
    app.addHook('onRequest', async (request, reply) => {
      const { operation, clientLimited } = request.routeOptions.config;
      // The container proxy has its own limit (connections per container); a player's daemon pings
      // it every few seconds and challenge scripts reconnect often, which must not cost API quota.
      // Without a limit each hub negotiation and upgrade, anonymous ones too, would be a free game lookup.
      if (operation ? operation.tag !== 'Proxy' : clientLimited) {
        const result = await perClient(request);
        if (!result.isAllowed && result.isExceeded) reject(reply, result.ttlInSeconds, result.max);
      }
    });

    // The named policies count what the route admits: a signed-out caller of a players' route, or a
    // body still arriving, spends nobody's budget and holds no slot.
    app.addHook('preHandler', async (request, reply) => {
      const policy = request.routeOptions.config.operation?.rateLimit;
      if (!policy) return;
      const limiter = named.get(policy);
      if (limiter) {
        const result = await limiter(request);
        if (!result.isAllowed && result.isExceeded) reject(reply, result.ttlInSeconds, result.max);
      } else if (policy === 'Concurrency') {
        // Kept on the request before waiting, so a client that gives up in the queue leaves it.
        const ticket = semaphores.enter(clientOf(request));
        (request as unknown as Record<symbol, SemaphoreTicket>)[kTicket] = ticket;
        if (!(await ticket.ready)) reject(reply, 1);
      }
    });

    // A proxy on this host that the server does not trust: every client looks like 127.0.0.1 and
    // shares one budget. Said once; the header's presence is the sign (direct clients do not send it).
    if (app.env.trustProxy === false) {
      let warned = false;
      app.addHook('onRequest', async (request) => {
        if (warned || !request.headers['x-forwarded-for'] || !isLoopback(request.socket.remoteAddress ?? '')) return;
        warned = true;
        app.log.warn(
          'requests arrive through a proxy on this host (X-Forwarded-For from a loopback address) but TRUST_PROXY is not set: every client shares the proxy’s rate limits; set TRUST_PROXY to the proxy’s address',
        );
      });
    }

    const release = async (request: FastifyRequest) => {
      (request as unknown as Record<symbol, SemaphoreTicket | undefined>)[kTicket]?.leave();
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
  },
  { name: 'rate-limit', dependencies: ['auth', 'cache', 'errors'] },
);
