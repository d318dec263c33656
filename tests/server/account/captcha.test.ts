import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import Fastify from 'fastify';
import { createMemoryCache, createRedisCache, type Cache } from '../../../server/src/plugins/app/cache';
import {
  createCaptcha,
  leadingZeroBits,
  POW_TTL_MS,
  powAnswerValid,
  solvePow,
} from '../../../server/src/plugins/app/captcha';
import { DEFAULT_SETTINGS } from '../../../server/src/modules/settings/settings.defaults';
import { engines } from '../helpers/database';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { createUser, uniqueName } from '../helpers/users';
import { accountCounts, setPolicy } from './support';

const redisUrl = process.env.REDIS_URL;

describe('HashPow arithmetic', () => {
  test('leading zero bits', () => {
    assert.equal(leadingZeroBits(Buffer.from([0xff])), 0);
    assert.equal(leadingZeroBits(Buffer.from([0x01, 0xff])), 7);
    assert.equal(leadingZeroBits(Buffer.from([0x00, 0x10])), 11);
    assert.equal(leadingZeroBits(Buffer.from([0x00, 0x00])), 16);
  });

  test('a solved challenge checks out and a wrong answer does not', () => {
    const challenge = '0123456789abcdef';
    const answer = solvePow(challenge, 12);
    assert.ok(powAnswerValid(challenge, answer, 12));
    // With 12 required bits, an arbitrary answer fails with probability 1 - 2^-12; find one that does.
    const wrong = ['0000000000000000', 'ffffffffffffffff', '00000000deadbeef'].find(
      (candidate) => !powAnswerValid(challenge, candidate, 12),
    );
    assert.ok(wrong);
  });
});

function cacheContract(name: string, make: () => Promise<{ cache: Cache; close(): Promise<void> }>) {
  describe(`cache: ${name}`, () => {
    let cache: Cache;
    let close: () => Promise<void>;
    before(async () => {
      ({ cache, close } = await make());
    });
    after(async () => close());

    test('set, get, take once, delete', async () => {
      const key = `t-${uniqueName()}`;
      await cache.set(key, 'v', 60_000);
      assert.equal(await cache.get(key), 'v');
      assert.equal(await cache.take(key), 'v');
      assert.equal(await cache.take(key), undefined);
      await cache.set(key, 'w', 60_000);
      await cache.delete(key);
      assert.equal(await cache.get(key), undefined);
    });

    test('values expire', async () => {
      const key = `t-${uniqueName()}`;
      await cache.set(key, 'v', 30);
      await new Promise((resolve) => setTimeout(resolve, 80));
      assert.equal(await cache.get(key), undefined);
    });
  });
}

cacheContract('in-process', async () => ({ cache: createMemoryCache(), close: async () => {} }));
test('the in-process cache expires by its clock: a 5-minute PoW challenge is gone after 5 minutes', async () => {
  let now = 1_000_000;
  const cache = createMemoryCache(() => now);
  await cache.set('_HP_x', 'challenge', POW_TTL_MS);
  now += POW_TTL_MS - 1;
  assert.equal(await cache.get('_HP_x'), 'challenge');
  now += 1;
  assert.equal(await cache.take('_HP_x'), undefined);
});
if (redisUrl) {
  cacheContract('Redis', async () => {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    return { cache: createRedisCache(redis, `test:${uniqueName()}:`), close: async () => void (await redis.quit()) };
  });
}

/** A stand-in for Cloudflare's siteverify that accepts one token and records what it was sent. */
async function startTurnstile() {
  const requests: Array<Record<string, unknown>> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      requests.push(parsed);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ success: parsed.response === 'good-token' && parsed.secret === 'shh' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const backends = [{ name: 'in-process', env: {} as Record<string, string> }];
if (redisUrl) backends.push({ name: 'Redis', env: { REDIS_URL: redisUrl } });

for (const engine of engines()) {
  for (const backend of backends) {
    describe(`HashPow captcha (${engine.name}, ${backend.name})`, () => {
      let ctx: TestApp;
      before(async () => {
        ctx = await createTestApp(engine, {
          env: testEnv({ CAPTCHA_PROVIDER: 'HashPow', HASHPOW_DIFFICULTY: '8', ...backend.env }),
          rateLimit: { disabled: true },
        });
      });
      after(async () => ctx.close());
      beforeEach(async () => setPolicy(ctx.app, { ...DEFAULT_SETTINGS.accountPolicy, useCaptcha: true }));

      const challenge = async () => {
        const response = await ctx.app.inject({ method: 'GET', url: '/api/captcha/powchallenge' });
        assert.equal(response.statusCode, 200);
        assertMatchesContract('infoPowChallenge', response.json());
        return response.json() as { id: string; challenge: string; difficulty: number };
      };
      const solved = async () => {
        const pow = await challenge();
        return `${pow.id}:${solvePow(pow.challenge, pow.difficulty)}`;
      };
      const register = (challengeField: unknown) => {
        const userName = uniqueName('c');
        return ctx.app.inject({
          method: 'POST',
          url: '/api/account/register',
          payload: { userName, password: 'Passw0rd', email: `${userName}@example.net`, challenge: challengeField },
        });
      };

      test('GET /api/captcha names the provider only while the policy uses captcha', async () => {
        let response = await ctx.app.inject({ method: 'GET', url: '/api/captcha' });
        assertMatchesContract('infoGetCaptchaConfig', response.json());
        assert.deepEqual(response.json(), { type: 'HashPow', siteKey: '' });
        await setPolicy(ctx.app, { useCaptcha: false });
        response = await ctx.app.inject({ method: 'GET', url: '/api/captcha' });
        assert.deepEqual(response.json(), { type: 'None', siteKey: '' });
      });

      test('challenges are 24 + 16 hex digits with the configured difficulty, each different', async () => {
        const first = await challenge();
        const second = await challenge();
        assert.match(first.id, /^[0-9a-f]{24}$/);
        assert.match(first.challenge, /^[0-9a-f]{16}$/);
        assert.equal(first.difficulty, 8);
        assert.notEqual(first.id, second.id);
      });

      test('register passes with a solved challenge, once', async () => {
        const token = await solved();
        const ok = await register(token);
        assert.equal(ok.statusCode, 200, ok.body);
        const reused = await register(token);
        assert.equal(reused.statusCode, 400);
        assert.equal(reused.json().title, 'Captcha verification failed');
      });

      test('missing, malformed, wrong or unknown answers are refused and nothing is written', async () => {
        const pow = await challenge();
        let wrongAnswer = '0000000000000000';
        for (let n = 1; powAnswerValid(pow.challenge, wrongAnswer, pow.difficulty); n++) {
          wrongAnswer = n.toString(16).padStart(16, '0');
        }
        const before = await accountCounts(ctx.app);
        for (const token of [
          undefined,
          null,
          '',
          'garbage',
          `${pow.id}:${wrongAnswer}`,
          `${'a'.repeat(24)}:${solvePow(pow.challenge, pow.difficulty)}`,
          `${pow.id}:${solvePow(pow.challenge, pow.difficulty)}xx`,
        ]) {
          const response = await register(token);
          assert.equal(response.statusCode, 400, String(token));
          assertMatchesContract('accountRegister', response.json(), 400);
          assert.equal(response.json().title, 'Captcha verification failed');
        }
        const german = await ctx.app.inject({
          method: 'POST',
          url: '/api/account/register',
          headers: { 'accept-language': 'de-DE' },
          payload: { userName: uniqueName(), password: 'Passw0rd', email: `${uniqueName()}@example.net` },
        });
        assert.equal(german.json().title, 'Die Captcha-Prüfung ist fehlgeschlagen');
        assert.deepEqual(await accountCounts(ctx.app), before);
        // The wrong answer consumed its challenge: even the right answer no longer passes.
        assert.equal((await register(`${pow.id}:${solvePow(pow.challenge, pow.difficulty)}`)).statusCode, 400);
      });

      test('login and recovery ask for the captcha too; other operations do not', async () => {
        const user = await createUser(ctx.app);
        const login = (challengeField?: string) =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/account/login',
            payload: { userName: user.userName, password: user.password, challenge: challengeField },
          });
        assert.equal((await login()).statusCode, 400);
        assert.equal((await login(await solved())).statusCode, 200);

        await setPolicy(ctx.app, { emailConfirmationRequired: true });
        const recovery = await ctx.app.inject({
          method: 'POST',
          url: '/api/account/recovery',
          payload: { email: user.email },
        });
        assert.equal(recovery.statusCode, 400);
        assert.equal(recovery.json().title, 'Captcha verification failed');
      });

      test('without useCaptcha no answer is needed', async () => {
        await setPolicy(ctx.app, { useCaptcha: false });
        assert.equal((await register(undefined)).statusCode, 200);
      });
    });
  }
}

describe('Turnstile', () => {
  const engine = engines()[0]!;
  let turnstile: Awaited<ReturnType<typeof startTurnstile>>;
  before(async () => {
    turnstile = await startTurnstile();
  });
  after(async () => turnstile.close());

  test('Turnstile tokens are checked with the verification endpoint', async () => {
    const ctx = await createTestApp(engine, {
      env: testEnv({
        CAPTCHA_PROVIDER: 'CloudflareTurnstile',
        CAPTCHA_SITE_KEY: '0x4AAAAA-site',
        TURNSTILE_SECRET: 'shh',
        TURNSTILE_VERIFY_URL: turnstile.url,
      }),
    });
    try {
      await setPolicy(ctx.app, { useCaptcha: true });
      const info = await ctx.app.inject({ method: 'GET', url: '/api/captcha' });
      assert.deepEqual(info.json(), { type: 'CloudflareTurnstile', siteKey: '0x4AAAAA-site' });
      const pow = await ctx.app.inject({ method: 'GET', url: '/api/captcha/powchallenge' });
      assert.equal(pow.statusCode, 404);
      assert.equal(pow.body, '');

      const user = await createUser(ctx.app);
      const login = (challenge?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/account/login',
          remoteAddress: '198.51.100.4',
          payload: { userName: user.userName, password: user.password, challenge },
        });
      assert.equal((await login('bad-token')).statusCode, 400);
      assert.equal((await login()).statusCode, 400);
      assert.equal((await login('good-token')).statusCode, 200);
      assert.deepEqual(turnstile.requests.at(-1), {
        secret: 'shh',
        response: 'good-token',
        remoteip: '198.51.100.4',
      });
    } finally {
      await ctx.close();
    }
  });

  test('Turnstile without a secret passes, as in GZCTF; an unreachable verifier fails closed', async () => {
    const settings = {
      provider: 'CloudflareTurnstile' as const,
      siteKey: '',
      turnstileSecret: undefined,
      turnstileVerifyUrl: turnstile.url,
      hashPowDifficulty: 18,
    };
    const log = Fastify({ logger: false }).log;
    const open = createCaptcha(settings, createMemoryCache(), log);
    assert.equal(await open.verify(undefined, '192.0.2.1'), true);
    const unreachable = createCaptcha(
      { ...settings, turnstileSecret: 'shh', turnstileVerifyUrl: 'http://127.0.0.1:9/siteverify' },
      createMemoryCache(),
      log,
    );
    assert.equal(await unreachable.verify('good-token', '192.0.2.1'), false);
    const none = createCaptcha({ ...settings, provider: 'None' }, createMemoryCache(), log);
    assert.equal(await none.verify(undefined, '192.0.2.1'), true);
    assert.deepEqual(none.info(true), { type: 'None', siteKey: '' });
  });
});
