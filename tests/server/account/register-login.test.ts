import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../../../server/src/db/schema';
import { DEFAULT_SETTINGS } from '../../../server/src/modules/settings/settings.defaults';
import { engines } from '../helpers/database';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { createUser, signIn, uniqueName } from '../helpers/users';
import { accountCounts, cookieFrom, setPolicy, userByName, userRow } from './support';

for (const engine of engines()) {
  describe(`registration (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      // More registrations than GZCTF's shared Register bucket (20 per 150 s) allows; rate-limit.test.ts covers it.
      ctx = await createTestApp(engine, { rateLimit: { policies: { Register: { max: 1000, windowMs: 60_000 } } } });
    });
    after(async () => ctx.close());
    beforeEach(async () => setPolicy(ctx.app, DEFAULT_SETTINGS.accountPolicy));

    const register = (payload: unknown, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/account/register',
        headers: { 'content-type': 'application/json', ...headers },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    const form = (overrides: Record<string, unknown> = {}) => {
      const userName = uniqueName('r');
      return { userName, password: 'Passw0rd', email: `${userName}@example.com`, ...overrides };
    };

    /** Sends `payload` and checks the 4xx body, its language and that no row was written. */
    async function refused(payload: unknown, status: number, title: string | RegExp, language?: string) {
      const before = await accountCounts(ctx.app);
      const response = await register(payload, language ? { 'accept-language': language } : {});
      assert.equal(response.statusCode, status, response.body);
      assertMatchesContract('accountRegister', response.json(), status);
      assert.equal(response.json().status, status);
      if (typeof title === 'string') assert.equal(response.json().title, title);
      else assert.match(response.json().title, title);
      assert.deepEqual(await accountCounts(ctx.app), before, 'nothing written');
    }

    test('with the default policy a new user is registered, confirmed and signed in', async () => {
      const payload = form();
      const response = await register(payload);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assertMatchesContract('accountRegister', body);
      assert.deepEqual(body, { title: 'Registered and signed in', data: 'LoggedIn', status: 200 });
      const cookie = cookieFrom(response);
      const profile = await ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      assert.equal(profile.statusCode, 200);
      assert.equal(profile.json().userName, payload.userName);
      assert.equal(profile.json().role, 'User');

      const row = (await userByName(ctx.app, payload.userName))!;
      assert.equal(row.emailConfirmed, true);
      assert.match(row.passwordHash, /^\$argon2id\$/);
      assert.ok(!row.passwordHash.includes(payload.password));
    });

    test('without activeOnRegister and e-mail confirmation an admin must confirm the account', async () => {
      await setPolicy(ctx.app, { activeOnRegister: false, emailConfirmationRequired: false });
      const payload = form();
      const response = await register(payload);
      assert.equal(response.statusCode, 200);
      assertMatchesContract('accountRegister', response.json());
      assert.equal(response.json().data, 'AdminConfirmationRequired');
      assert.equal(cookieFrom(response), '', 'not signed in');
      assert.equal((await userByName(ctx.app, payload.userName))!.emailConfirmed, false);

      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { userName: payload.userName, password: payload.password },
      });
      assert.equal(login.statusCode, 401);
      assert.equal(login.json().title, 'The e-mail address of this account has not been verified yet');
    });

    test('with admin confirmation, registering an unconfirmed address again is refused (nobody proves the address)', async () => {
      await setPolicy(ctx.app, { activeOnRegister: false, emailConfirmationRequired: false });
      const first = form();
      await register(first);
      const original = (await userByName(ctx.app, first.userName))!;
      await refused(
        form({ email: first.email.toUpperCase(), password: 'An0therPass' }),
        400,
        'A user with this e-mail address already exists',
      );
      const row = (await userRow(ctx.app, original.id))!;
      assert.deepEqual([row.userName, row.passwordHash], [first.userName, original.passwordHash]);
    });

    test('an account that was in use, or has a role, is not taken over by registering its address', async () => {
      await setPolicy(ctx.app, { activeOnRegister: false, emailConfirmationRequired: false });
      const used = await createUser(ctx.app);
      await signIn(ctx.app, used.userName, used.password);
      const monitor = form();
      await register(monitor);
      const pending = (await userByName(ctx.app, monitor.userName))!;
      await ctx.app.db.update(users).set({ role: 'Monitor' }).where(eq(users.id, pending.id));
      // An admin sets the used account back to unconfirmed.
      await ctx.app.db.update(users).set({ emailConfirmed: false }).where(eq(users.id, used.id));
      for (const email of [used.email, monitor.email]) {
        const before = await accountCounts(ctx.app);
        await refused(form({ email }), 400, 'A user with this e-mail address already exists');
        assert.deepEqual(await accountCounts(ctx.app), before);
      }
      assert.equal((await userRow(ctx.app, used.id))!.userName, used.userName);
      assert.equal((await userRow(ctx.app, pending.id))!.userName, monitor.userName);
    });

    test('with the default captcha provider (None) no answer is needed, even when the policy asks', async () => {
      await setPolicy(ctx.app, { useCaptcha: true });
      const info = await ctx.app.inject({ method: 'GET', url: '/api/captcha' });
      assertMatchesContract('infoGetCaptchaConfig', info.json());
      assert.deepEqual(info.json(), { type: 'None', siteKey: '' });
      const pow = await ctx.app.inject({ method: 'GET', url: '/api/captcha/powchallenge' });
      assert.equal(pow.statusCode, 404);
      assert.equal(pow.body, '');
      assert.equal((await register(form())).statusCode, 200);
    });

    test('registration disabled', async () => {
      await setPolicy(ctx.app, { allowRegister: false });
      await refused(form(), 400, 'Registration is disabled');
      await refused(form(), 400, '注册功能已关闭', 'zh-CN');
    });

    test('e-mail domain allow-list', async () => {
      await setPolicy(ctx.app, { emailDomainList: 'example.com, CTF.org' });
      await refused(
        form({ email: 'someone@elsewhere.net' }),
        400,
        'Only e-mail addresses of these domains may be used: example.com, ctf.org',
      );
      await refused(form({ email: 'someone@sub.example.com' }), 400, /example\.com/);
      const allowed = await register(form({ email: `${uniqueName()}@Ctf.Org` }));
      assert.equal(allowed.statusCode, 200);
    });

    test('a taken user name or a confirmed address is refused, whatever the case', async () => {
      const existing = await createUser(ctx.app);
      await refused(
        form({ userName: existing.userName.toUpperCase() }),
        400,
        `The user name ${existing.userName.toUpperCase()} is already taken`,
      );
      await refused(
        form({ email: existing.email.toUpperCase() }),
        400,
        'A user with this e-mail address already exists',
      );
      await refused(
        form({ email: existing.email }),
        400,
        'Ein Benutzer mit dieser E-Mail-Adresse existiert bereits',
        'de-DE',
      );
    });

    test('password rules (ASP.NET Identity defaults), localised', async () => {
      await refused(form({ password: 'Pa0' }), 400, 'Passwords must be at least 6 characters long');
      await refused(form({ password: 'Password' }), 400, "Passwords must have at least one digit ('0'-'9')");
      await refused(
        form({ password: 'PASSW0RD' }),
        400,
        "Passwords must have at least one lower-case letter ('a'-'z')",
      );
      await refused(
        form({ password: 'passw0rd' }),
        400,
        "Passwords must have at least one upper-case letter ('A'-'Z')",
      );
      await refused(form({ password: 'passw0rd' }), 400, "密码必须至少包含一个大写字母（'A'-'Z'）", 'zh-CN');
      await refused(form({ password: 'Pa0' }), 400, 'Пароль должен содержать не менее 6 символов', 'ru-RU');
    });

    test('missing, over-long and wrongly typed fields', async () => {
      const { userName: _omit, ...withoutName } = form();
      await refused(withoutName, 400, 'userName is required');
      await refused(form({ userName: 'ab' }), 400, 'userName must be at least 3 characters long');
      await refused(form({ userName: 'a'.repeat(16) }), 400, 'userName must be at most 15 characters long');
      await refused(form({ userName: ['x', 'y', 'z'] }), 400, /userName/);
      await refused(form({ password: '' }), 400, /password/);
      await refused(form({ email: 'not-an-address' }), 400, 'email must be a valid email');
      await refused(
        form({ email: `${'a'.repeat(250)}@example.com` }),
        400,
        'email must be at most 256 characters long',
      );
      await refused(form({ challenge: { answer: 1 } }), 400, /challenge/);
      await refused(form({ userName: 'ab' }), 400, 'userName 长度至少为 3 个字符', 'zh-CN');
      await refused('{"userName":', 400, /./);
    });
  });

  describe(`sign-in (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    const login = (payload: unknown, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url: '/api/account/login', payload: payload as object, headers });

    test('by user name or e-mail, in any case', async () => {
      const user = await createUser(ctx.app, { userName: uniqueName('Mixed') });
      for (const name of [user.userName, user.userName.toUpperCase(), user.email, user.email.toUpperCase()]) {
        const response = await login({ userName: name, password: user.password });
        assert.equal(response.statusCode, 200, `${name}: ${response.body}`);
        assert.notEqual(cookieFrom(response), '');
      }
    });

    test('records the sign-in time and address', async () => {
      const user = await createUser(ctx.app);
      const before = Date.now();
      await login({ userName: user.userName, password: user.password }, {});
      const row = (await userRow(ctx.app, user.id))!;
      assert.ok(row.lastSignedInAt.getTime() >= before - 1000);
      assert.equal(row.ip, '127.0.0.1');
    });

    test('unknown user and wrong password are the same 401', async () => {
      const user = await createUser(ctx.app);
      const wrong = await login({ userName: user.userName, password: 'Wr0ngPassword' });
      const unknown = await login({ userName: 'nobody-here', password: 'Wr0ngPassword' });
      for (const response of [wrong, unknown]) {
        assert.equal(response.statusCode, 401);
        assertMatchesContract('accountLogIn', response.json(), 401);
        assert.deepEqual(response.json(), { title: 'Incorrect user name or password', status: 401 });
        assert.equal(cookieFrom(response), '');
      }
      const japanese = await login({ userName: user.userName, password: 'x' }, { 'accept-language': 'ja-JP' });
      assert.equal(japanese.json().title, 'ユーザー名またはパスワードが正しくありません');
    });

    test('a banned user is told so, but only with the right password', async () => {
      const user = await createUser(ctx.app, { role: 'Banned' });
      const right = await login({ userName: user.userName, password: user.password });
      assert.equal(right.statusCode, 401);
      assert.equal(right.json().title, 'This account has been banned');
      assert.equal(cookieFrom(right), '');
      const wrong = await login({ userName: user.userName, password: 'Wr0ngPassword' });
      assert.equal(wrong.json().title, 'Incorrect user name or password');
    });

    test('an unconfirmed account cannot sign in', async () => {
      const user = await createUser(ctx.app, { confirmed: false });
      const response = await login({ userName: user.userName, password: user.password });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().title, 'The e-mail address of this account has not been verified yet');
    });

    test('empty or missing fields are a 400 and create no session', async () => {
      const before = await accountCounts(ctx.app);
      for (const payload of [{ userName: 'someone', password: '' }, { userName: 'someone' }, { password: 'x' }, {}]) {
        const response = await login(payload);
        assert.equal(response.statusCode, 400);
        assertMatchesContract('accountLogIn', response.json(), 400);
      }
      assert.deepEqual(await accountCounts(ctx.app), before);
    });
  });
}
