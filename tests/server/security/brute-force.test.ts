import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import type { LightMyRequestResponse } from 'fastify';
import {
  addressScope,
  createMemoryAttemptStore,
  createRedisAttemptStore,
  delayAfter,
  withFallback,
  type AttemptPolicy,
  type AttemptStore,
} from '../../../server/src/plugins/app/brute-force';
import type { RateLimitOptions } from '../../../server/src/plugins/app/rate-limit';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { asUser, createUser, signIn, uniqueName, type TestUser } from '../helpers/users';
import { caller, createTeamVia, player } from '../team/support';
import { client, createGame } from '../edit/support';

const redisUrl = process.env.REDIS_URL;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const policy = (overrides: Partial<AttemptPolicy> = {}): AttemptPolicy => ({
  free: 2,
  baseDelayMs: SECOND,
  maxDelayMs: 8 * SECOND,
  forgetAfterMs: MINUTE,
  onSuccess: 'forget',
  ...overrides,
});

/**
 * Tiny budgets and long delays (a refused attempt is refused for the whole test), large request-rate
 * limits so only the guessing limits answer 429.
 */
const LIMITS: RateLimitOptions = {
  disabled: false,
  global: { max: 10_000, windowMs: MINUTE },
  policies: { Register: { max: 10_000, windowMs: MINUTE } },
  concurrency: { concurrent: 100, queue: 100 },
  attempts: {
    signInAccount: { free: 3, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    signInAddress: { free: 6, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    inviteUser: { free: 2, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    inviteAddress: { free: 4, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    gameCodeUser: { free: 2, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    gameCodeAddress: { free: 4, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    recoveryAccount: { free: 2, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    recoveryAddress: { free: 4, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    resetAddress: { free: 2, baseDelayMs: MINUTE, maxDelayMs: HOUR },
    registerAddress: { free: 2, baseDelayMs: MINUTE, maxDelayMs: HOUR },
  },
};

/**
 * A 429 of the guessing limits: `{title, status}` in the request's language and a Retry-After near a
 * minute. Sign-in and invitations have no 429 in the GZCTF contract; the others are checked against it.
 */
function assertLimited(response: LightMyRequestResponse, operationId?: string) {
  assert.equal(response.statusCode, 429, response.body);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  const body = response.json<{ title: string; status: number }>();
  assert.deepEqual(Object.keys(body).sort(), ['status', 'title']);
  assert.equal(body.status, 429);
  if (operationId) assertMatchesContract(operationId, body, 429);
  return { retryAfter, title: body.title };
}

describe('attempt counting', () => {
  test('delays start after the free attempts, double, and stop at the cap', () => {
    const rule = policy({ free: 2, baseDelayMs: SECOND, maxDelayMs: 5 * SECOND });
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((count) => delayAfter(count, rule)),
      [0, SECOND, 2 * SECOND, 4 * SECOND, 5 * SECOND, 5 * SECOND],
    );
    assert.equal(delayAfter(10_000, rule), 5 * SECOND, 'no overflow far past the cap');
  });

  test('client addresses: IPv4 as it is, IPv6 by its /64 network', () => {
    assert.equal(addressScope('198.51.100.7'), '198.51.100.7');
    assert.equal(addressScope('::ffff:198.51.100.7'), '198.51.100.7');
    assert.equal(addressScope('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressScope('2001:db8:1:2::99'), '2001:db8:1:2::/64');
    assert.equal(addressScope('2001:0db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressScope('::1'), '0:0:0:0::/64');
  });

  test('the in-process store: waits, growth, refunds, clearing and forgetting (on a clock of its own)', async () => {
    let now = 1_000_000;
    const store = createMemoryAttemptStore(() => now);
    const rule = policy({ free: 2, baseDelayMs: SECOND, maxDelayMs: 4 * SECOND, forgetAfterMs: MINUTE });
    assert.equal(await store.charge('k', rule), 0);
    assert.equal(await store.charge('k', rule), 0, 'the second free attempt; a wait starts after it');
    assert.equal(await store.charge('k', rule), SECOND);
    now += 400;
    assert.equal(await store.charge('k', rule), 600, 'a refused attempt is not counted');
    now += 600;
    assert.equal(await store.charge('k', rule), 0);
    assert.equal(await store.charge('k', rule), 2 * SECOND, 'the wait doubled');
    now += 2 * SECOND;
    assert.equal(await store.charge('k', rule), 0);
    now += 4 * SECOND;
    assert.equal(await store.charge('k', rule), 0);
    assert.equal(await store.charge('k', rule), 4 * SECOND, 'capped');
    assert.equal(await store.charge('other', rule), 0, 'keys count apart');

    await store.clear('k');
    assert.equal(await store.charge('k', rule), 0, 'cleared by a success');
    await store.refund('k', rule);
    await store.refund('k', rule);
    assert.equal(await store.charge('k', rule), 0);
    assert.equal(await store.charge('k', rule), 0, 'a refunded attempt gave its place back');

    now += MINUTE;
    assert.equal(await store.charge('k', rule), 0, 'forgotten a while after the last attempt');
    assert.equal(await store.charge('k', rule), 0);
  });

  test('while the shared store fails (Redis down), attempts are counted in-process', async () => {
    const down = new Error('connection refused');
    const broken: AttemptStore = {
      charge: () => Promise.reject(down),
      refund: () => Promise.reject(down),
      clear: () => Promise.reject(down),
    };
    const warnings: unknown[] = [];
    // A fixed clock: the second charge must see exactly the first one's wait, however slow the machine.
    const store = withFallback(
      broken,
      createMemoryAttemptStore(() => 1_000_000),
      (error) => warnings.push(error),
    );
    const rule = policy({ free: 1, baseDelayMs: MINUTE, maxDelayMs: MINUTE });
    assert.equal(await store.charge('k', rule), 0);
    assert.equal(await store.charge('k', rule), MINUTE);
    await store.clear('k');
    assert.equal(await store.charge('k', rule), 0);
    assert.deepEqual(warnings, [down, down, down, down]);
  });

  test('attempts arriving together are each counted', async () => {
    const store = createMemoryAttemptStore();
    const rule = policy({ free: 3, baseDelayMs: MINUTE, maxDelayMs: MINUTE });
    const waits = await Promise.all(Array.from({ length: 10 }, () => store.charge('k', rule)));
    assert.equal(waits.filter((wait) => wait === 0).length, 3);
  });
});

describe('attempt counting in Redis', { skip: redisUrl ? false : 'REDIS_URL is not set' }, () => {
  let redis: Redis;
  let store: AttemptStore;
  const prefix = `test-${randomBytes(6).toString('hex')}:attempts:`;
  before(() => {
    redis = new Redis(redisUrl!);
    store = createRedisAttemptStore(redis, prefix);
  });
  after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  /** Lets the key's current wait pass, as if its time had come. */
  const waitPasses = (key: string) => redis.hset(prefix + key, 'n', '0');

  test('the same rules as in-process, counted atomically for every instance', async () => {
    const rule = policy({ free: 2, baseDelayMs: 10 * SECOND, maxDelayMs: 40 * SECOND, forgetAfterMs: MINUTE });
    const waits = await Promise.all(Array.from({ length: 6 }, () => store.charge('k', rule)));
    assert.equal(waits.filter((wait) => wait === 0).length, 2, 'two free attempts out of six sent together');
    const refused = waits.find((wait) => wait > 0)!;
    assert.ok(refused > 9 * SECOND && refused <= 10 * SECOND, `first wait ${refused}`);
    await waitPasses('k');
    assert.equal(await store.charge('k', rule), 0);
    const doubled = await store.charge('k', rule);
    assert.ok(doubled > 19 * SECOND && doubled <= 20 * SECOND, `second wait ${doubled}`);
    await waitPasses('k');
    await store.charge('k', rule);
    await waitPasses('k');
    await store.charge('k', rule);
    const capped = await store.charge('k', rule);
    assert.ok(capped > 39 * SECOND && capped <= 40 * SECOND, `capped wait ${capped}`);
    const ttl = await redis.pttl(prefix + 'k');
    assert.ok(ttl > 39 * SECOND && ttl <= MINUTE, `forgotten in ${ttl} ms`);

    await store.clear('k');
    assert.equal(await store.charge('k', rule), 0);
    assert.equal(await store.charge('k', rule), 0);
    assert.ok((await store.charge('k', rule)) > 0);
    await store.refund('k', rule);
    assert.equal(await store.charge('k', rule), 0, 'the refund took the wait back with the attempt');
  });
});

for (const engine of engines()) {
  describe(`brute-force limits over HTTP (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine, { rateLimit: LIMITS });
    });
    after(async () => ctx.close());

    const logIn = (userName: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        remoteAddress,
        headers,
        payload: { userName, password },
      });

    test('sign-in per account: a few wrong passwords, then a wait even for the right one; success resets', async () => {
      const user = await createUser(ctx.app);
      // Two misses and a success: the success forgets the misses.
      for (let i = 0; i < 2; i++)
        assert.equal((await logIn(user.userName, 'Wrong-0ne', '198.51.100.1')).statusCode, 401);
      await signIn(ctx.app, user.userName, user.password, '198.51.100.1');
      // Three misses (from three addresses: the account is what counts), then the right password waits.
      for (const address of ['198.51.100.2', '198.51.100.3', '198.51.100.4']) {
        assert.equal((await logIn(user.userName, 'Wrong-0ne', address)).statusCode, 401);
      }
      const limited = assertLimited(await logIn(user.userName, user.password, '198.51.100.5'));
      assert.equal(limited.title, `Too many requests, please try again in ${limited.retryAfter} seconds`);
      const chinese = assertLimited(
        await logIn(user.userName, user.password, '198.51.100.5', { 'accept-language': 'zh-CN' }),
      );
      assert.match(chinese.title, /^请求过于频繁，请在 \d+ 秒后重试$/);
      // The account counts whatever its case, and whether it is named by its name or its address.
      assertLimited(await logIn(user.userName.toUpperCase(), user.password, '198.51.100.6'));
      assertLimited(await logIn(user.email, user.password, '198.51.100.7'));
      // Another account from the same addresses is not held up.
      const other = await createUser(ctx.app);
      await signIn(ctx.app, other.userName, other.password, '198.51.100.5');
    });

    test('sign-in per address: guessing many accounts from one address waits too', async () => {
      const users: TestUser[] = await Promise.all(Array.from({ length: 7 }, () => createUser(ctx.app)));
      // Six misses on six accounts (each far below its own budget) use up the address.
      for (const user of users.slice(0, 6)) {
        assert.equal((await logIn(user.userName, 'Wrong-0ne', '203.0.113.10')).statusCode, 401);
      }
      assertLimited(await logIn(users[6]!.userName, users[6]!.password, '203.0.113.10'));
      // Accounts that do not exist count the same (nobody learns which names exist).
      for (let i = 0; i < 6; i++)
        assert.equal((await logIn(uniqueName('nx'), 'Wrong-0ne', '203.0.113.11')).statusCode, 401);
      assertLimited(await logIn(uniqueName('nx'), 'Wrong-0ne', '203.0.113.11'));
      // One IPv6 client has a whole /64: its addresses share one count.
      for (let i = 0; i < 6; i++) {
        assert.equal((await logIn(uniqueName('v6'), 'Wrong-0ne', `2001:db8:5:6::${i + 1}`)).statusCode, 401);
      }
      assertLimited(await logIn(users[6]!.userName, users[6]!.password, '2001:db8:5:6::abcd'));
      // Loopback is an address like any other (a proxy on the same host without TRUST_PROXY).
      for (let i = 0; i < 6; i++)
        assert.equal((await logIn(uniqueName('lo'), 'Wrong-0ne', '127.0.0.9')).statusCode, 401);
      assertLimited(await logIn(users[6]!.userName, users[6]!.password, '127.0.0.9'));
      await signIn(ctx.app, users[6]!.userName, users[6]!.password, '203.0.113.12');
    });

    test('successful sign-ins from one address (a venue behind NAT) are not counted against it', async () => {
      const crowd = await Promise.all(Array.from({ length: 10 }, () => createUser(ctx.app)));
      for (const user of crowd) await signIn(ctx.app, user.userName, user.password, '203.0.113.20');
      // Five misses still leave the address its sixth attempt.
      for (const user of crowd.slice(0, 5)) {
        assert.equal((await logIn(user.userName, 'Wrong-0ne', '203.0.113.20')).statusCode, 401);
      }
      await signIn(ctx.app, crowd[5]!.userName, crowd[5]!.password, '203.0.113.20');
    });

    test('a refused attempt costs nothing elsewhere: the other scope is not charged', async () => {
      const user = await createUser(ctx.app);
      // The address 203.0.113.10 is waiting (previous test): its attempts do not count against the account.
      for (let i = 0; i < 5; i++) assertLimited(await logIn(user.userName, 'Wrong-0ne', '203.0.113.10'));
      await signIn(ctx.app, user.userName, user.password, '203.0.113.13');
    });

    test('invitation codes: wrong codes are counted per user and per address; a right one resets the user', async () => {
      const owner = await player(ctx.app);
      const team = await createTeamVia(owner);
      const code = (await owner.call('GET', `/api/team/${team.id}/invite`)).json<string>();
      const wrongCode = code.replace(/[0-9a-f]{32}$/, '0'.repeat(32));
      const guesser = await player(ctx.app);
      const accept = (who: { cookie: string }, body: string, remoteAddress: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/team/accept',
          remoteAddress,
          headers: { cookie: who.cookie, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      assert.equal((await accept(guesser, wrongCode, '192.0.2.31')).statusCode, 400);
      assert.equal(
        (await accept(guesser, `${team.name}:${team.id + 1000}:${'0'.repeat(32)}`, '192.0.2.32')).statusCode,
        400,
      );
      assertLimited(await accept(guesser, code, '192.0.2.33'));

      // Another player, same budget as anyone: one miss, then the right code, then misses from a fresh start.
      const member = await player(ctx.app);
      assert.equal((await accept(member, wrongCode, '192.0.2.34')).statusCode, 400);
      assert.equal((await accept(member, code, '192.0.2.34')).statusCode, 200);
      assert.equal((await accept(member, wrongCode, '192.0.2.35')).statusCode, 400);
      assert.equal((await accept(member, code, '192.0.2.35')).statusCode, 400, 'already a member: a known code');
      assert.equal((await accept(member, wrongCode, '192.0.2.36')).statusCode, 400);

      // Per address: four players guessing from one address.
      const crowd = await Promise.all(Array.from({ length: 5 }, () => player(ctx.app)));
      for (const one of crowd.slice(0, 4)) assert.equal((await accept(one, wrongCode, '192.0.2.40')).statusCode, 400);
      assertLimited(await accept(crowd[4]!, code, '192.0.2.40'));
      assert.equal((await accept(crowd[4]!, code, '192.0.2.41')).statusCode, 200);
      // Anonymous callers are refused before anything is counted.
      assert.equal((await caller(ctx.app)('POST', '/api/team/accept', code)).statusCode, 401);
    });

    test("a game's invitation code: wrong codes counted per user and per address; joining elsewhere resets nothing", async () => {
      const admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
      const closed = await createGame(admin, { inviteCode: 'hunter2', acceptWithoutReview: true });
      const open = await createGame(admin, { acceptWithoutReview: false });
      const teams = new Map<object, { id: number }>();
      const joinAs = async (
        who: { call: ReturnType<typeof caller>; cookie: string },
        gameId: number,
        remoteAddress: string,
        inviteCode?: string,
      ) => {
        const team = teams.get(who) ?? (await createTeamVia(who));
        teams.set(who, team);
        return ctx.app.inject({
          method: 'POST',
          url: `/api/game/${gameId}`,
          remoteAddress,
          headers: { cookie: who.cookie, 'content-type': 'application/json' },
          payload: JSON.stringify({ teamId: team.id, ...(inviteCode === undefined ? {} : { inviteCode }) }),
        });
      };
      const guesser = await player(ctx.app);
      assert.equal((await joinAs(guesser, closed.id, '192.0.2.61', 'password')).statusCode, 400);
      // Joining a game without a code, then leaving it, does not clear the count.
      assert.equal((await joinAs(guesser, open.id, '192.0.2.62')).statusCode, 200);
      assert.equal((await guesser.call('DELETE', `/api/game/${open.id}`)).statusCode, 200);
      assert.equal((await joinAs(guesser, closed.id, '192.0.2.63', 'letmein')).statusCode, 400);
      assertLimited(await joinAs(guesser, closed.id, '192.0.2.64', 'hunter2'));

      // Per address: four players guessing from one address hold up a fifth with the right code.
      const crowd = await Promise.all(Array.from({ length: 5 }, () => player(ctx.app)));
      for (const one of crowd.slice(0, 4))
        assert.equal((await joinAs(one, closed.id, '192.0.2.70', 'qwerty')).statusCode, 400);
      assertLimited(await joinAs(crowd[4]!, closed.id, '192.0.2.70', 'hunter2'));
      assert.equal((await joinAs(crowd[4]!, closed.id, '192.0.2.71', 'hunter2')).statusCode, 200);
    });

    test('password recovery: counted per account asked about and per address asking', async () => {
      const recover = (email: string, remoteAddress: string) =>
        ctx.app.inject({ method: 'POST', url: '/api/account/recovery', remoteAddress, payload: { email } });
      const target = `${uniqueName('rc')}@example.net`;
      // Recovery is off on a fresh platform (no e-mail confirmation): the answers are 400, counted all the same.
      assert.equal((await recover(target, '192.0.2.51')).statusCode, 400);
      assert.equal((await recover(target, '192.0.2.52')).statusCode, 400);
      assertLimited(await recover(target, '192.0.2.53'), 'accountRecovery');
      assertLimited(await recover(target.toUpperCase(), '192.0.2.54'));
      for (let i = 0; i < 4; i++)
        assert.equal((await recover(`${uniqueName('rc')}@example.net`, '192.0.2.55')).statusCode, 400);
      assertLimited(await recover(`${uniqueName('rc')}@example.net`, '192.0.2.55'));
    });

    test('password reset tokens: counted per address', async () => {
      const reset = (remoteAddress: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/account/passwordreset',
          remoteAddress,
          payload: {
            password: 'N3w-Passw0rd',
            email: Buffer.from('nobody@example.net').toString('base64'),
            rToken: randomBytes(16).toString('hex'),
          },
        });
      assert.equal((await reset('192.0.2.61')).statusCode, 400);
      assert.equal((await reset('192.0.2.61')).statusCode, 400);
      assertLimited(await reset('192.0.2.61'), 'accountPasswordReset');
      assert.equal((await reset('192.0.2.62')).statusCode, 400);
    });

    test('registration: every attempt from one address counts, successful or not', async () => {
      const register = (remoteAddress: string, userName = uniqueName('rg')) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/account/register',
          remoteAddress,
          payload: { userName, password: 'Passw0rd', email: `${userName}@example.net` },
        });
      assert.equal((await register('192.0.2.71')).statusCode, 200);
      const taken = uniqueName('rg');
      await createUser(ctx.app, { userName: taken });
      assert.equal((await register('192.0.2.71', taken)).statusCode, 400);
      assertLimited(await register('192.0.2.71'), 'accountRegister');
      assert.equal((await register('192.0.2.72')).statusCode, 200);
    });
  });
}

describe('brute-force counts shared by instances', { skip: redisUrl ? false : 'REDIS_URL is not set' }, () => {
  const [engine] = engines();
  let one: TestApp;
  let two: TestApp;
  before(async () => {
    const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` };
    one = await createTestApp(engine!, { env: testEnv(env), rateLimit: LIMITS });
    two = await createTestApp(engine!, {
      env: testEnv(env),
      rateLimit: LIMITS,
      database: { ...one.database, close: async () => {} },
    });
  });
  after(async () => {
    await two?.close();
    await one?.close();
  });

  test('misses on one instance hold up the account on the other', async () => {
    const user = await createUser(one.app);
    const logIn = (ctx: TestApp, password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        remoteAddress: '198.51.100.90',
        payload: { userName: user.userName, password },
      });
    assert.equal((await logIn(one, 'Wrong-0ne')).statusCode, 401);
    assert.equal((await logIn(two, 'Wrong-0ne')).statusCode, 401);
    assert.equal((await logIn(one, 'Wrong-0ne')).statusCode, 401);
    assertLimited(await logIn(two, user.password));
    assertLimited(await logIn(one, user.password));
  });
});
