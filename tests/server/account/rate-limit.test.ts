import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isLoopback, MemoryStore, type RateLimitOptions } from '../../../server/src/plugins/app/rate-limit';
import { createSemaphore, keyedSemaphores } from '../../../server/src/lib/semaphore';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { engines } from '../helpers/database';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { createUser, signIn, uniqueName } from '../helpers/users';

const redisUrl = process.env.REDIS_URL;
const MINUTE = 60_000;

async function withApp(
  options: {
    env?: Record<string, string>;
    rateLimit?: RateLimitOptions;
    engine?: ReturnType<typeof engines>[number];
    database?: DatabaseHandle;
  },
  run: (ctx: TestApp) => Promise<void>,
) {
  const ctx = await createTestApp(options.engine ?? engines()[0]!, {
    env: testEnv(options.env),
    rateLimit: options.rateLimit,
    database: options.database,
  });
  try {
    await run(ctx);
  } finally {
    await ctx.close();
  }
}

const register = (ctx: TestApp, remoteAddress: string, headers: Record<string, string> = {}) => {
  const userName = uniqueName('rl');
  return ctx.app.inject({
    method: 'POST',
    url: '/api/account/register',
    remoteAddress,
    headers,
    payload: { userName, password: 'Passw0rd', email: `${userName}@example.net` },
  });
};

describe('rate-limit building blocks', () => {
  test('loopback addresses', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopback(ip), ip);
    for (const ip of ['10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', '128.0.0.1']) assert.ok(!isLoopback(ip), ip);
  });

  test('the Concurrency semaphore runs one at a time, queues a few and refuses the rest', async () => {
    const semaphore = createSemaphore(1, 2);
    const first = semaphore.enter();
    assert.equal(await first.ready, true);
    const order: number[] = [];
    const second = semaphore.enter();
    const third = semaphore.enter();
    void second.ready.then(() => order.push(2));
    void third.ready.then(() => order.push(3));
    assert.equal(await semaphore.enter().ready, false, 'queue full');
    first.leave();
    first.leave(); // twice is harmless
    assert.equal(await second.ready, true);
    second.leave();
    assert.equal(await third.ready, true);
    third.leave();
    assert.deepEqual(order, [2, 3]);
    const fourth = semaphore.enter();
    assert.equal(await fourth.ready, true, 'free again');

    // Leaving the queue before one's turn gives the place up without taking the slot.
    const waiting = semaphore.enter();
    waiting.leave();
    assert.equal(await waiting.ready, false);
    fourth.leave();
    const fifth = semaphore.enter();
    assert.equal(await fifth.ready, true);
  });

  test('keyed semaphores: each key has its own, dropped once nobody runs or waits in it', async () => {
    const semaphores = keyedSemaphores(1, 0);
    const alice = semaphores.enter('alice');
    assert.equal(await alice.ready, true);
    assert.equal(await semaphores.enter('alice').ready, false, "alice's queue holds nobody");
    const bob = semaphores.enter('bob');
    assert.equal(await bob.ready, true, 'another key runs beside it');
    assert.equal(semaphores.size, 2);
    alice.leave();
    bob.leave();
    assert.equal(semaphores.size, 0);
    const again = semaphores.enter('alice');
    assert.equal(await again.ready, true);
    again.leave();
  });
});

for (const engine of engines()) {
  describe(`rate limits (${engine.name})`, () => {
    // One app with tiny limits; each test uses its own client addresses so the counts do not mix.
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine, {
        rateLimit: {
          disabled: false,
          global: { max: 3, windowMs: MINUTE },
          policies: {
            Register: { max: 2, windowMs: MINUTE },
            PowChallenge: { max: 1, windowMs: MINUTE },
            Submit: { max: 1, windowMs: MINUTE },
          },
          concurrency: { concurrent: 1, queue: 0 },
        },
      });
    });
    after(async () => ctx.close());

    const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url: '/api/config', remoteAddress, headers });

    test('the global limit counts per address, answers 429 with Retry-After, in the request language', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await get('198.51.100.1')).statusCode, 200);
      const limited = await get('198.51.100.1');
      assert.equal(limited.statusCode, 429);
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal(limited.headers['x-ratelimit-limit'], '3');
      assert.deepEqual(limited.json(), {
        title: `Too many requests, please try again in ${retryAfter} seconds`,
        status: 429,
      });
      const chinese = await get('198.51.100.1', { 'accept-language': 'zh-CN' });
      assert.match(chinese.json().title, /^请求过于频繁，请在 \d+ 秒后重试$/);
      assert.equal((await get('198.51.100.2')).statusCode, 200, 'another address has its own budget');
    });

    test('requests arriving together get exactly the allowed number through', async () => {
      const codes = await Promise.all([1, 2, 3, 4, 5].map(() => get('198.51.100.3').then((r) => r.statusCode)));
      assert.deepEqual(codes.sort(), [200, 200, 200, 429, 429]);
    });

    test('loopback clients are limited like any other (a reverse proxy on the same host without TRUST_PROXY)', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await get('127.0.0.2')).statusCode, 200);
      assert.equal((await get('127.0.0.2')).statusCode, 429);
      assert.equal((await get('::1')).statusCode, 200, 'each loopback address counts on its own');
    });

    test('a proxy on this host that is not trusted (X-Forwarded-For from loopback) is reported once', async () => {
      const warnings: string[] = [];
      const original = ctx.app.log.warn;
      ctx.app.log.warn = ((message: unknown) => void warnings.push(String(message))) as typeof original;
      try {
        await get('198.51.100.9', { 'x-forwarded-for': '203.0.113.77' });
        assert.deepEqual(warnings, [], 'a remote client may send the header itself');
        await get('127.0.0.3', { 'x-forwarded-for': '203.0.113.77' });
        await get('127.0.0.3', { 'x-forwarded-for': '203.0.113.78' });
      } finally {
        ctx.app.log.warn = original;
      }
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /TRUST_PROXY/);
    });

    test('signed-in users are counted per user, not per address', async () => {
      const alice = await createUser(ctx.app);
      const bob = await createUser(ctx.app);
      const aliceCookie = await signIn(ctx.app, alice.userName, alice.password, '203.0.113.1');
      const bobCookie = await signIn(ctx.app, bob.userName, bob.password, '203.0.113.2');
      const profile = (cookie: string) =>
        ctx.app.inject({
          method: 'GET',
          url: '/api/account/profile',
          remoteAddress: '203.0.113.5',
          headers: { cookie },
        });
      for (let i = 0; i < 3; i++) assert.equal((await profile(aliceCookie)).statusCode, 200);
      const limited = await profile(aliceCookie);
      assert.equal(limited.statusCode, 429);
      // The contract declares 429 only on operations with a named policy; the body is the same everywhere.
      assert.deepEqual(Object.keys(limited.json()).sort(), ['status', 'title']);
      assert.equal(limited.json().status, 429);
      assert.equal((await profile(bobCookie)).statusCode, 200, 'same address, other user');
    });

    test('a named policy counts per client (the address when signed out), on top of the global limit', async () => {
      assert.equal((await register(ctx, '192.0.2.1')).statusCode, 200);
      assert.equal((await register(ctx, '192.0.2.1')).statusCode, 200);
      const limited = await register(ctx, '192.0.2.1', { 'accept-language': 'de-DE' });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.headers['x-ratelimit-limit'], '2', 'the policy refused it, not the global limit');
      assertMatchesContract('accountRegister', limited.json(), 429);
      assert.match(limited.json().title, /^Zu viele Anfragen, bitte versuche es in \d+ Sekunden erneut$/);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      // Another address has its own; an IPv6 client is one client across its /64.
      assert.equal((await register(ctx, '192.0.2.2')).statusCode, 200);
      assert.equal((await register(ctx, '2001:db8:1:2::a')).statusCode, 200);
      assert.equal((await register(ctx, '2001:db8:1:2::b')).statusCode, 200);
      assert.equal((await register(ctx, '2001:db8:1:2::c')).statusCode, 429);
      // The same bucket covers recovery; sign-in has no named policy.
      const recovery = (remoteAddress: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/account/recovery',
          remoteAddress,
          payload: { email: 'someone@example.net' },
        });
      assert.notEqual((await recovery('192.0.2.2')).statusCode, 429);
      const refused = await recovery('192.0.2.2');
      assert.equal(refused.statusCode, 429);
      assertMatchesContract('accountRecovery', refused.json(), 429);
      const user = await createUser(ctx.app);
      await signIn(ctx.app, user.userName, user.password, '192.0.2.3');
    });

    test("signed-out callers of a players' route spend no one's named budget", async () => {
      const submit = (remoteAddress: string, cookie?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/game/2147483647/challenges/1',
          remoteAddress,
          headers: cookie ? { cookie } : {},
          payload: { flag: 'flag{x}' },
        });
      for (let i = 0; i < 3; i++) assert.equal((await submit(`192.0.2.${40 + i}`)).statusCode, 401);
      const alice = await createUser(ctx.app);
      const bob = await createUser(ctx.app);
      const aliceCookie = await signIn(ctx.app, alice.userName, alice.password, '192.0.2.50');
      const bobCookie = await signIn(ctx.app, bob.userName, bob.password, '192.0.2.51');
      // No such game: answered, so counted (the policy allows one a minute here).
      assert.equal((await submit('192.0.2.52', aliceCookie)).statusCode, 404);
      const limited = await submit('192.0.2.52', aliceCookie);
      assert.equal(limited.statusCode, 429);
      assertMatchesContract('gameSubmit', limited.json(), 429);
      assert.equal((await submit('192.0.2.52', bobCookie)).statusCode, 404, 'another player has his own');
    });

    test('the PowChallenge policy counts every request for a challenge', async () => {
      // The provider is None here, so the first answer is the empty 404; the second is already limited.
      const pow = (remoteAddress: string) =>
        ctx.app.inject({ method: 'GET', url: '/api/captcha/powchallenge', remoteAddress });
      assert.equal((await pow('192.0.2.6')).statusCode, 404);
      const limited = await pow('192.0.2.6');
      assert.equal(limited.statusCode, 429);
      assertMatchesContract('infoPowChallenge', limited.json(), 429);
    });

    test('the Concurrency policy lets sequential requests through (every slot is released)', async () => {
      const user = await createUser(ctx.app);
      const cookie = await signIn(ctx.app, user.userName, user.password, '192.0.2.60');
      for (let i = 0; i < 2; i++) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/team',
          remoteAddress: '192.0.2.60',
          headers: { cookie },
          payload: { name: `team ${i}` },
        });
        assert.equal(response.statusCode, 200, response.body);
      }
    });

    test('a team-creation body that never finishes holds no Concurrency slot', async () => {
      const user = await createUser(ctx.app);
      const cookie = await signIn(ctx.app, user.userName, user.password, '192.0.2.61');
      const origin = new URL(await ctx.app.listen({ host: '127.0.0.1', port: 0 }));
      const slow = net.connect(Number(origin.port), '127.0.0.1');
      try {
        await new Promise<void>((resolve) => slow.once('connect', resolve));
        slow.write(
          `POST /api/team HTTP/1.1\r\nHost: ${origin.host}\r\nCookie: ${cookie}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"name":',
        );
        // Its headers are in (it is signed in and counted); its body never completes.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/team',
          remoteAddress: '192.0.2.61',
          headers: { cookie },
          payload: { name: 'not kept waiting' },
        });
        assert.equal(response.statusCode, 200, response.body);
      } finally {
        slow.destroy();
      }
    });
  });
}

describe('DISABLE_RATE_LIMIT', () => {
  test('turns every limit off', async () => {
    await withApp(
      {
        env: { DISABLE_RATE_LIMIT: 'true' },
        rateLimit: {
          global: { max: 1, windowMs: MINUTE },
          policies: { Register: { max: 1, windowMs: MINUTE } },
          attempts: { signInAccount: { free: 1 }, signInAddress: { free: 1 }, registerAddress: { free: 1 } },
        },
      },
      async (ctx) => {
        const user = await createUser(ctx.app);
        for (let i = 0; i < 3; i++) {
          assert.equal((await register(ctx, '192.0.2.9')).statusCode, 200);
          const config = await ctx.app.inject({ method: 'GET', url: '/api/config', remoteAddress: '192.0.2.9' });
          assert.equal(config.statusCode, 200);
          const wrong = await ctx.app.inject({
            method: 'POST',
            url: '/api/account/login',
            remoteAddress: '192.0.2.9',
            payload: { userName: user.userName, password: 'Wrong-Passw0rd' },
          });
          assert.equal(wrong.statusCode, 401);
        }
        await signIn(ctx.app, user.userName, user.password, '192.0.2.9');
      },
    );
  });
});

describe('rate limits in Redis', { skip: redisUrl ? false : 'REDIS_URL is not set' }, () => {
  test('two server instances share the counters', async () => {
    const namespace = randomBytes(6).toString('hex');
    const rateLimit: RateLimitOptions = {
      disabled: false,
      namespace,
      policies: { Register: { max: 3, windowMs: MINUTE } },
    };
    // One platform: both instances share the Redis key prefix and the database (whose installation id
    // is part of every key).
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `test-${namespace}:` };
    await withApp({ env, rateLimit }, async (first) => {
      await withApp({ env, rateLimit, database: { ...first.database, close: async () => {} } }, async (second) => {
        assert.equal((await register(first, '192.0.2.1')).statusCode, 200);
        assert.equal((await register(second, '192.0.2.1')).statusCode, 200);
        assert.equal((await register(first, '192.0.2.1')).statusCode, 200);
        assert.equal((await register(second, '192.0.2.1')).statusCode, 429);
        assert.equal((await register(first, '192.0.2.1')).statusCode, 429);
        assert.equal((await register(first, '192.0.2.2')).statusCode, 200, 'another client has its own');
      });
    });
  });
});

describe('in-process rate-limit store', () => {
  test('each caller sees its own count, and windows restart after they end', async () => {
    const store = new MemoryStore();
    const incr = (key: string, windowMs: number) =>
      new Promise<{ current: number; ttl: number }>((resolve) =>
        store.incr(key, (_error, result) => resolve(result), windowMs),
      );
    const results = await Promise.all([incr('a', MINUTE), incr('a', MINUTE), incr('a', MINUTE)]);
    assert.deepEqual(
      results.map((result) => result.current),
      [1, 2, 3],
    );
    assert.equal((await incr('b', MINUTE)).current, 1);
    assert.equal((await incr('short', 1)).current, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await incr('short', 1)).current, 1, 'a new window');
  });
});
