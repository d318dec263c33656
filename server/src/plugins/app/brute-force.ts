import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { HttpError } from '../../lib/http-error';

/**
 * Limits on guessing: passwords at sign-in, team and game invitation codes, and the requests that send mail or
 * make accounts (password recovery, registration). The request-rate limits (rate-limit.ts) cannot do
 * this: 150 requests a minute is 200,000 password guesses a day.
 *
 * Each scope (an account tried, a client address, a signed-in user) gets a few attempts in a row; from
 * then on every attempt must wait a delay after the previous one, doubling each time up to a cap, and
 * an attempt made too early is refused with 429 and `Retry-After` (and not counted, so waiting it out
 * is enough). What a success does depends on the scope (`onSuccess`). Counts are forgotten a while
 * after the last counted attempt.
 *
 * Counts live in Redis when REDIS_URL is set (one count for all instances), in-process otherwise or
 * while Redis is unreachable.
 */
export interface AttemptPolicy {
  /** Attempts in a row before any delay. */
  free: number;
  /** The first delay; each further attempt doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A count is forgotten this long after its last counted attempt. */
  forgetAfterMs: number;
  /**
   * What a success does: `forget` the count (the secret was known: the account's own password),
   * `takeBack` the attempt (an address: a venue behind one address signs in all day, yet a guesser
   * with an account of their own must not clear the count by signing into it between guesses), or
   * `count` it like any other (every registration, every recovery mail).
   */
  onSuccess: 'forget' | 'takeBack' | 'count';
}

export type AttemptScope =
  | 'signInAccount'
  | 'signInAddress'
  | 'inviteUser'
  | 'inviteAddress'
  | 'gameCodeUser'
  | 'gameCodeAddress'
  | 'recoveryAccount'
  | 'recoveryAddress'
  | 'resetAddress'
  | 'registerAddress';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Per account the budget is small: nobody mistypes their password ten times a minute. Per address it
 * is larger, since a whole venue may share one address (NAT) and mistype together.
 */
export const DEFAULT_ATTEMPT_POLICIES: Record<AttemptScope, AttemptPolicy> = {
  signInAccount: { free: 5, baseDelayMs: SECOND, maxDelayMs: MINUTE, forgetAfterMs: 15 * MINUTE, onSuccess: 'forget' },
  signInAddress: {
    free: 50,
    baseDelayMs: SECOND,
    maxDelayMs: MINUTE,
    forgetAfterMs: 15 * MINUTE,
    onSuccess: 'takeBack',
  },
  inviteUser: { free: 5, baseDelayMs: SECOND, maxDelayMs: MINUTE, forgetAfterMs: 15 * MINUTE, onSuccess: 'forget' },
  inviteAddress: {
    free: 30,
    baseDelayMs: SECOND,
    maxDelayMs: MINUTE,
    forgetAfterMs: 15 * MINUTE,
    onSuccess: 'takeBack',
  },
  // A game's invitation code is the admin's choice, often a short word: wrong ones are counted like
  // a team's. A join that passes takes its attempt back rather than clearing the count, since joining a
  // game without a code (then leaving it) must not reset a guesser's budget.
  gameCodeUser: { free: 5, baseDelayMs: SECOND, maxDelayMs: MINUTE, forgetAfterMs: 15 * MINUTE, onSuccess: 'takeBack' },
  gameCodeAddress: {
    free: 30,
    baseDelayMs: SECOND,
    maxDelayMs: MINUTE,
    forgetAfterMs: 15 * MINUTE,
    onSuccess: 'takeBack',
  },
  // Each recovery request sends a mail: a few for one account, then minutes apart.
  recoveryAccount: {
    free: 3,
    baseDelayMs: MINUTE,
    maxDelayMs: 15 * MINUTE,
    forgetAfterMs: HOUR,
    onSuccess: 'count',
  },
  recoveryAddress: {
    free: 10,
    baseDelayMs: 10 * SECOND,
    maxDelayMs: 10 * MINUTE,
    forgetAfterMs: HOUR,
    onSuccess: 'count',
  },
  resetAddress: {
    free: 10,
    baseDelayMs: SECOND,
    maxDelayMs: MINUTE,
    forgetAfterMs: 15 * MINUTE,
    onSuccess: 'takeBack',
  },
  registerAddress: {
    free: 30,
    baseDelayMs: SECOND,
    maxDelayMs: MINUTE,
    forgetAfterMs: 15 * MINUTE,
    onSuccess: 'count',
  },
};

/** Counting one scope's attempts: each operation is atomic, so attempts arriving together are each counted. */
export interface AttemptStore {
  /** Counts an attempt and answers 0, or, while the key must wait, counts nothing and answers the wait in ms. */
  charge(key: string, policy: AttemptPolicy): Promise<number>;
  /** Takes back a counted attempt that turned out not to be a guess (a refusal elsewhere, a server fault). */
  refund(key: string, policy: AttemptPolicy): Promise<void>;
  /** Forgets the key's count (a success). */
  clear(key: string): Promise<void>;
}

/** The wait imposed after the `count`-th attempt in a row (0 while still within the free ones). */
export function delayAfter(count: number, policy: AttemptPolicy): number {
  if (count < policy.free) return 0;
  // Capped exponent: 2^30 s is far past any cap, and the number stays exact.
  return Math.min(policy.baseDelayMs * 2 ** Math.min(count - policy.free, 30), policy.maxDelayMs);
}

export function createMemoryAttemptStore(now: () => number = Date.now): AttemptStore {
  /** Keys are accounts and addresses; past this many, the least recently used are forgotten. */
  const capacity = 20_000;
  const entries = new Map<string, { count: number; nextAt: number; expiresAt: number }>();
  const read = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async charge(key, policy) {
      const time = now();
      const entry = read(key) ?? { count: 0, nextAt: 0, expiresAt: 0 };
      if (entry.nextAt > time) return entry.nextAt - time;
      entry.count++;
      const delay = delayAfter(entry.count, policy);
      entry.nextAt = delay ? time + delay : 0;
      entry.expiresAt = time + Math.max(policy.forgetAfterMs, delay);
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > capacity) entries.delete(entries.keys().next().value!);
      return 0;
    },
    async refund(key, policy) {
      const entry = read(key);
      if (!entry) return;
      entry.count--;
      if (entry.count <= 0) entries.delete(key);
      else if (entry.count < policy.free) entry.nextAt = 0;
    },
    async clear(key) {
      entries.delete(key);
    },
  };
}

// A hash per key: c = attempts counted, n = the time (Redis clock, ms) before which none is taken.
// Redis's clock, not the instance's: instances whose clocks differ still agree on the wait.
const CHARGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
if nextAt > now then return nextAt - now end
local count = redis.call('HINCRBY', KEYS[1], 'c', 1)
local free, base, cap, forget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ttl = forget
if count >= free then
  local delay = math.min(base * 2 ^ math.min(count - free, 30), cap)
  redis.call('HSET', KEYS[1], 'n', string.format('%d', now + delay))
  if delay > ttl then ttl = delay end
end
redis.call('PEXPIRE', KEYS[1], ttl)
return 0`;

const REFUND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local count = redis.call('HINCRBY', KEYS[1], 'c', -1)
if count <= 0 then redis.call('DEL', KEYS[1])
elseif count < tonumber(ARGV[1]) then redis.call('HDEL', KEYS[1], 'n') end
return 0`;

export function createRedisAttemptStore(redis: Redis, prefix: string): AttemptStore {
  return {
    async charge(key, policy) {
      const wait = await redis.eval(
        CHARGE,
        1,
        prefix + key,
        policy.free,
        policy.baseDelayMs,
        policy.maxDelayMs,
        policy.forgetAfterMs,
      );
      return Number(wait);
    },
    async refund(key, policy) {
      await redis.eval(REFUND, 1, prefix + key, policy.free);
    },
    async clear(key) {
      await redis.del(prefix + key);
    },
  };
}

/** A store that falls back to in-process counts while the shared one fails (Redis down). */
export function withFallback(shared: AttemptStore, local: AttemptStore, warn: (error: unknown) => void): AttemptStore {
  const attempt = async <T>(run: (store: AttemptStore) => Promise<T>): Promise<T> => {
    try {
      return await run(shared);
    } catch (error) {
      warn(error);
      return run(local);
    }
  };
  return {
    charge: (key, policy) => attempt((store) => store.charge(key, policy)),
    refund: (key, policy) => attempt((store) => store.refund(key, policy)),
    clear: (key) => attempt((store) => store.clear(key)),
  };
}

/**
 * The part of a client address that one client controls: the address for IPv4, the /64 network for
 * IPv6 (a single host is routinely given a whole /64, so counting its addresses one by one is no limit).
 */
export function addressScope(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type AttemptKey = [scope: AttemptScope, key: string];

export interface AttemptOptions {
  /** Whether a failure of the operation is a guess that counts (default: every client error does). */
  counts?: (error: unknown) => boolean;
}

export interface AttemptGuard {
  /**
   * Runs `operation` as one attempt in every given scope, or refuses it with 429 and `Retry-After`
   * while any scope must still wait. A success does what each scope's `onSuccess` says; a failure that
   * counts stays counted; any other outcome (a server fault) is taken back.
   */
  run<T>(reply: FastifyReply, keys: AttemptKey[], operation: () => Promise<T>, options?: AttemptOptions): Promise<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    attempts: AttemptGuard;
  }
}

const isClientError = (error: unknown) => error instanceof HttpError && error.statusCode < 500;

/** Identifiers (user names, e-mail addresses) enter the key hashed: short, and no personal data in Redis. */
const keyOf = (scope: AttemptScope, key: string) =>
  `${scope}:${createHash('sha256').update(key.trim().toLowerCase()).digest('base64url').slice(0, 24)}`;

export function createAttemptGuard(store: AttemptStore, policies: Record<AttemptScope, AttemptPolicy>): AttemptGuard {
  return {
    async run<T>(reply: FastifyReply, keys: AttemptKey[], operation: () => Promise<T>, options: AttemptOptions = {}) {
      const charged: Array<{ key: string; policy: AttemptPolicy }> = [];
      const takeBack = () => Promise.all(charged.map(({ key, policy }) => store.refund(key, policy)));
      for (const [scope, value] of keys) {
        const key = keyOf(scope, value);
        const policy = policies[scope];
        const wait = await store.charge(key, policy);
        if (wait > 0) {
          // Refused in one scope: the others' attempts were not made either.
          await takeBack();
          const seconds = Math.max(1, Math.ceil(wait / 1000));
          reply.header('retry-after', seconds);
          throw new HttpError(429, 'error.tooManyRequests', { seconds });
        }
        charged.push({ key, policy });
      }
      let result: T;
      try {
        result = await operation();
      } catch (error) {
        if (!(options.counts ?? isClientError)(error)) await takeBack();
        throw error;
      }
      await Promise.all(
        charged.map(({ key, policy }) =>
          policy.onSuccess === 'forget'
            ? store.clear(key)
            : policy.onSuccess === 'takeBack'
              ? store.refund(key, policy)
              : undefined,
        ),
      );
      return result;
    },
  };
}

/** Runs every attempt: the limits are off (DISABLE_RATE_LIMIT). */
export const unlimitedAttempts: AttemptGuard = {
  run: (_reply, _keys, operation) => operation(),
};

export interface BruteForceOptions {
  disabled?: boolean;
  attempts?: Partial<Record<AttemptScope, Partial<AttemptPolicy>>>;
}

export default fp(
  async function bruteForce(app: FastifyInstance, options: BruteForceOptions) {
    if (options.disabled ?? app.env.disableRateLimit) {
      app.decorate('attempts', unlimitedAttempts);
      return;
    }
    const policies = Object.fromEntries(
      Object.entries(DEFAULT_ATTEMPT_POLICIES).map(([scope, policy]) => [
        scope,
        { ...policy, ...options.attempts?.[scope as AttemptScope] },
      ]),
    ) as Record<AttemptScope, AttemptPolicy>;
    const local = createMemoryAttemptStore();
    const store = app.redis
      ? withFallback(createRedisAttemptStore(app.redis, `${app.redisPrefix}attempts:`), local, (error) =>
          app.log.warn({ err: error }, 'counting attempts in-process: Redis did not answer'),
        )
      : local;
    app.decorate('attempts', createAttemptGuard(store, policies));
  },
  { name: 'brute-force', dependencies: ['cache', 'errors'] },
);
