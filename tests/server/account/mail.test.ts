import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { sessions, users, userTokens } from '../../../server/src/db/schema';
import { hashToken } from '../../../server/src/lib/tokens';
import { DEFAULT_SETTINGS } from '../../../server/src/modules/settings/settings.defaults';
import { engines } from '../helpers/database';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { asUser, createUser, signIn, uniqueName } from '../helpers/users';
import {
  accountCounts,
  base64,
  cookieFrom,
  linkFrom,
  setPolicy,
  startMailServer,
  userByName,
  userRow,
  type MailServer,
} from './support';

const CONFIRM = { activeOnRegister: false, emailConfirmationRequired: true };

for (const engine of engines()) {
  describe(`account mail over SMTP (${engine.name})`, () => {
    let ctx: TestApp;
    let smtp: MailServer;
    before(async () => {
      smtp = await startMailServer();
      ctx = await createTestApp(engine, {
        env: testEnv({
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(smtp.port),
          SMTP_SECURE: 'false',
          SMTP_FROM: 'CTF <ctf@example.org>',
          PUBLIC_URL: 'https://ctf.example.org',
        }),
        rateLimit: { disabled: true },
      });
    });
    after(async () => {
      await ctx.close();
      await smtp.close();
    });
    beforeEach(async () => {
      smtp.refuse(false);
      await setPolicy(ctx.app, { ...DEFAULT_SETTINGS.accountPolicy, ...CONFIRM });
    });

    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url, payload: payload as object, headers });
    const register = (headers: Record<string, string> = {}, overrides: Record<string, string> = {}) => {
      const userName = uniqueName('m');
      const payload = { userName, password: 'Passw0rd', email: `${userName}@example.net`, ...overrides };
      return post('/api/account/register', payload, headers).then((response) => ({ response, ...payload }));
    };
    const profile = (cookie: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
    /** Makes every link mailed to the address's account expired. */
    const expireLinks = async (email: string) => {
      const row = await ctx.app.db.query.users.findFirst({ where: (users, { ilike }) => ilike(users.email, email) });
      await ctx.app.db
        .update(userTokens)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(userTokens.userId, row!.id));
    };
    const login = (userName: string, password: string) => post('/api/account/login', { userName, password });

    test('register → verification mail → verify signs the user in', async () => {
      const { response, userName, email, password } = await register();
      assert.equal(response.statusCode, 200);
      assertMatchesContract('accountRegister', response.json());
      assert.equal(response.json().data, 'EmailConfirmationRequired');
      assert.equal(cookieFrom(response), '');

      const mail = await smtp.nextMailTo(email);
      assert.equal(mail.from, 'ctf@example.org');
      assert.equal(mail.subject, 'Verify your e-mail address for GZ');
      assert.match(mail.text, new RegExp(`Hello ${userName}`));
      assert.match(mail.html, /<a href="https:\/\/ctf\.example\.org\/account\/verify\?/);
      const link = linkFrom(mail);
      assert.equal(link.url.origin + link.url.pathname, 'https://ctf.example.org/account/verify');
      assert.equal(Buffer.from(link.email, 'base64').toString(), email);
      // Only the hash of the mailed token is stored.
      const [token] = await ctx.app.db
        .select()
        .from(userTokens)
        .where(eq(userTokens.tokenHash, hashToken(link.token)));
      assert.equal(token?.purpose, 'EmailConfirm');

      const tooEarly = await post('/api/account/login', { userName, password });
      assert.equal(tooEarly.statusCode, 401);

      const verified = await post('/api/account/verify', { token: link.token, email: link.email });
      assert.equal(verified.statusCode, 200, verified.body);
      assert.equal(verified.body, '');
      const me = await profile(cookieFrom(verified));
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().userName, userName);
      assert.equal((await userByName(ctx.app, userName))!.emailConfirmed, true);

      const reused = await post('/api/account/verify', { token: link.token, email: link.email });
      assert.equal(reused.statusCode, 400);
      assertMatchesContract('accountVerify', reused.json(), 400);
      assert.equal(reused.json().title, 'This e-mail address has already been verified');
      const login = await post('/api/account/login', { userName, password });
      assert.equal(login.statusCode, 200);
    });

    test('the mail is written in the language of the request', async () => {
      const { email } = await register({ 'accept-language': 'zh-CN' });
      const mail = await smtp.nextMailTo(email);
      assert.equal(mail.subject, '验证你在 GZ 的邮箱');
      assert.match(mail.text, /链接 3 小时内有效/);
    });

    test('verify refuses bad, replaced and expired tokens and changes nothing', async () => {
      const { email, userName } = await register();
      const firstLink = linkFrom(await smtp.nextMailTo(email));
      // Once the link has expired, registering the unconfirmed address again sends a new one and
      // retires the old one.
      await expireLinks(email);
      const again = await post('/api/account/register', { userName, password: 'Passw0rd', email });
      assert.equal(again.json().data, 'EmailConfirmationRequired');
      const secondLink = linkFrom(await smtp.nextMailTo(email));
      assert.notEqual(secondLink.token, firstLink.token);

      const cases: Array<[unknown, number, string]> = [
        [
          { token: firstLink.token, email: firstLink.email },
          401,
          'The link is invalid, has already been used or has expired',
        ],
        [
          { token: 'forged', email: secondLink.email },
          401,
          'The link is invalid, has already been used or has expired',
        ],
        [
          { token: secondLink.token, email: base64('someone-else@example.net') },
          400,
          'The e-mail address in the link is invalid',
        ],
        [{ token: secondLink.token, email: '%%%not base64' }, 400, 'The e-mail address in the link is invalid'],
        [{ token: secondLink.token }, 400, 'email is required'],
      ];
      for (const [payload, status, title] of cases) {
        const response = await post('/api/account/verify', payload);
        assert.equal(response.statusCode, status, JSON.stringify(payload));
        assertMatchesContract('accountVerify', response.json(), status);
        assert.equal(response.json().title, title);
        assert.equal(cookieFrom(response), '');
      }

      await ctx.app.db
        .update(userTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(userTokens.tokenHash, hashToken(secondLink.token)));
      const expired = await post('/api/account/verify', { token: secondLink.token, email: secondLink.email });
      assert.equal(expired.statusCode, 401);
      const row = (await userByName(ctx.app, userName))!;
      assert.equal(row.emailConfirmed, false);
      const [token] = await ctx.app.db
        .select()
        .from(userTokens)
        .where(eq(userTokens.tokenHash, hashToken(secondLink.token)));
      assert.equal(token?.usedAt, null, 'a refused token is not marked used');
    });

    test('a mail the SMTP server refuses is a 400', async () => {
      smtp.refuse(true);
      const { response } = await register();
      assert.equal(response.statusCode, 400);
      assertMatchesContract('accountRegister', response.json(), 400);
      assert.equal(response.json().title, 'The e-mail could not be sent, please try again later');
    });

    test('recovery → reset link → new password; the link works once', async () => {
      const user = await createUser(ctx.app);
      const session = await signIn(ctx.app, user.userName, user.password);
      const response = await post('/api/account/recovery', { email: user.email.toUpperCase() });
      assert.equal(response.statusCode, 200);
      assertMatchesContract('accountRecovery', response.json());
      assert.deepEqual(response.json(), {
        title: 'An e-mail with a link to reset your password has been sent',
        status: 200,
      });
      const mail = await smtp.nextMailTo(user.email);
      assert.equal(mail.subject, 'Reset your password for GZ');
      const link = linkFrom(mail);
      assert.equal(link.url.pathname, '/account/reset');

      const weak = await post('/api/account/passwordreset', {
        password: 'weak',
        email: link.email,
        rToken: link.token,
      });
      assert.equal(weak.statusCode, 400);
      assert.equal(weak.json().title, 'Passwords must be at least 6 characters long');
      const otherEmail = await post('/api/account/passwordreset', {
        password: 'N3wPassword',
        email: base64((await createUser(ctx.app)).email),
        rToken: link.token,
      });
      assert.equal(otherEmail.statusCode, 400, "another user's address does not fit the token");
      await signIn(ctx.app, user.userName, user.password); // still the old password

      const reset = await post('/api/account/passwordreset', {
        password: 'N3wPassword',
        email: link.email,
        rToken: link.token,
      });
      assert.equal(reset.statusCode, 200, reset.body);
      assert.equal(reset.body, '');
      await assert.rejects(signIn(ctx.app, user.userName, user.password), /401/);
      await signIn(ctx.app, user.userName, 'N3wPassword');
      assert.equal((await profile(session)).statusCode, 401, 'sessions from before the reset are gone');

      const reused = await post('/api/account/passwordreset', {
        password: 'Th1rdPassword',
        email: link.email,
        rToken: link.token,
      });
      assert.equal(reused.statusCode, 400);
      assertMatchesContract('accountPasswordReset', reused.json(), 400);
      assert.equal(reused.json().title, 'The link is invalid, has already been used or has expired');
      await signIn(ctx.app, user.userName, 'N3wPassword');
    });

    test('an expired reset link changes nothing', async () => {
      const user = await createUser(ctx.app);
      await post('/api/account/recovery', { email: user.email });
      const link = linkFrom(await smtp.nextMailTo(user.email));
      await ctx.app.db
        .update(userTokens)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(userTokens.tokenHash, hashToken(link.token)));
      const response = await post('/api/account/passwordreset', {
        password: 'N3wPassword',
        email: link.email,
        rToken: link.token,
      });
      assert.equal(response.statusCode, 400);
      await signIn(ctx.app, user.userName, user.password);
    });

    test('recovery answers 404 for unknown or unconfirmed addresses and 400 when confirmation is off', async () => {
      const before = await accountCounts(ctx.app);
      const unknown = await post('/api/account/recovery', { email: 'nobody@example.net' });
      assert.equal(unknown.statusCode, 404);
      assertMatchesContract('accountRecovery', unknown.json(), 404);
      assert.equal(unknown.json().title, 'No user with this e-mail address was found');
      const pending = await createUser(ctx.app, { confirmed: false });
      const unconfirmed = await post('/api/account/recovery', { email: pending.email });
      assert.equal(unconfirmed.statusCode, 404);
      const invalid = await post('/api/account/recovery', { email: 'not an address' });
      assert.equal(invalid.statusCode, 400);

      await setPolicy(ctx.app, { emailConfirmationRequired: false });
      const confirmed = await createUser(ctx.app);
      const off = await post('/api/account/recovery', { email: confirmed.email }, { 'accept-language': 'es-ES' });
      assert.equal(off.statusCode, 400);
      assertMatchesContract('accountRecovery', off.json(), 400);
      assert.equal(
        off.json().title,
        'La recuperación de contraseña por correo no está disponible; pide a un administrador que restablezca tu contraseña',
      );
      const after = await accountCounts(ctx.app);
      assert.equal(after.tokens, before.tokens, 'no token issued');
    });

    test('change e-mail → confirmation mail to the new address → confirm', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const newMail = `${uniqueName('new')}@example.net`;
      const response = await ctx.app.inject({
        method: 'PUT',
        url: '/api/account/changeemail',
        headers: { cookie },
        payload: { newMail },
      });
      assert.equal(response.statusCode, 200);
      assertMatchesContract('accountChangeEmail', response.json());
      assert.deepEqual(response.json(), {
        title: 'A confirmation e-mail has been sent to the new address',
        data: true,
        status: 200,
      });
      const mail = await smtp.nextMailTo(newMail);
      assert.equal(mail.subject, 'Confirm your new e-mail address for GZ');
      const link = linkFrom(mail);
      assert.equal(link.url.pathname, '/account/confirm');
      assert.equal((await userRow(ctx.app, user.id))!.email, user.email, 'unchanged until confirmed');

      // Another signed-in user cannot use the link, and it stays usable for its owner.
      const intruder = await asUser(ctx.app);
      const stolen = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/mailchangeconfirm',
        headers: { cookie: intruder.cookie },
        payload: { token: link.token, email: link.email },
      });
      assert.equal(stolen.statusCode, 400);
      assertMatchesContract('accountMailChangeConfirm', stolen.json(), 400);
      assert.equal((await userRow(ctx.app, intruder.user.id))!.email, intruder.user.email);
      const signedOut = await post('/api/account/mailchangeconfirm', { token: link.token, email: link.email });
      assert.equal(signedOut.statusCode, 401);
      const wrongAddress = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/mailchangeconfirm',
        headers: { cookie },
        payload: { token: link.token, email: base64('other@example.net') },
      });
      assert.equal(wrongAddress.statusCode, 400);

      const confirmed = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/mailchangeconfirm',
        headers: { cookie },
        payload: { token: link.token, email: link.email },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal((await profile(cookie)).json().email, newMail);
      await signIn(ctx.app, newMail, user.password);
      await assert.rejects(signIn(ctx.app, user.email, user.password), /401/);

      const reused = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/mailchangeconfirm',
        headers: { cookie },
        payload: { token: link.token, email: link.email },
      });
      assert.equal(reused.statusCode, 400);
    });

    test('change e-mail refuses taken or disallowed addresses, and answers data:false when confirmation is off', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const taken = await createUser(ctx.app);
      const change = (newMail: string) =>
        ctx.app.inject({ method: 'PUT', url: '/api/account/changeemail', headers: { cookie }, payload: { newMail } });
      const before = await accountCounts(ctx.app);

      const inUse = await change(taken.email.toUpperCase());
      assert.equal(inUse.statusCode, 400);
      assertMatchesContract('accountChangeEmail', inUse.json(), 400);
      assert.equal(inUse.json().title, `The e-mail address ${taken.email.toUpperCase()} is already in use`);
      assert.equal((await change('not-an-address')).statusCode, 400);

      await setPolicy(ctx.app, { emailDomainList: 'example.com' });
      const domain = await change('me@elsewhere.net');
      assert.equal(domain.statusCode, 400);
      assert.equal(domain.json().title, 'Only e-mail addresses of these domains may be used: example.com');

      await setPolicy(ctx.app, { emailConfirmationRequired: false, emailDomainList: '' });
      const off = await change(`${uniqueName()}@example.net`);
      assert.equal(off.statusCode, 400);
      assertMatchesContract('accountChangeEmail', off.json(), 400);
      assert.deepEqual(off.json(), {
        title: 'E-mail changes are not available; please ask an administrator to change your address',
        data: false,
        status: 400,
      });
      assert.deepEqual(await accountCounts(ctx.app), before, 'no token issued');
      assert.equal((await userRow(ctx.app, user.id))!.email, user.email);
      assert.equal(smtp.received.filter((mail) => mail.to.includes(taken.email.toLowerCase())).length, 0);
    });

    test("registering a pending address again is refused while its link is live, so the owner's click never confirms another's password", async () => {
      const victim = await register();
      const firstLink = linkFrom(await smtp.nextMailTo(victim.email));
      const row = (await userByName(ctx.app, victim.userName))!;
      const before = await accountCounts(ctx.app);
      const attack = await post('/api/account/register', {
        userName: victim.userName,
        password: 'Evil1pass',
        email: victim.email.toUpperCase(),
      });
      assert.equal(attack.statusCode, 400, attack.body);
      assert.equal(attack.json().title, 'A user with this e-mail address already exists');
      assert.deepEqual(await accountCounts(ctx.app), before);
      assert.equal((await userRow(ctx.app, row.id))!.passwordHash, row.passwordHash, 'the password is untouched');

      const verified = await post('/api/account/verify', { token: firstLink.token, email: firstLink.email });
      assert.equal(verified.statusCode, 200, verified.body);
      assert.equal((await login(victim.userName, victim.password)).statusCode, 200);
      assert.equal((await login(victim.userName, 'Evil1pass')).statusCode, 401);
    });

    test('once its link has expired, a pending registration is taken over by registering its address again', async () => {
      const first = await register();
      await smtp.nextMailTo(first.email);
      const row = (await userByName(ctx.app, first.userName))!;
      await expireLinks(first.email);
      const before = await accountCounts(ctx.app);
      const second = await register({}, { email: first.email.toUpperCase(), password: 'An0therPass' });
      assert.equal(second.response.statusCode, 200, second.response.body);
      assert.equal(second.response.json().data, 'EmailConfirmationRequired');
      assert.deepEqual(await accountCounts(ctx.app), before, 'the same row, no new user');
      const taken = (await userRow(ctx.app, row.id))!;
      assert.equal(taken.userName, second.userName);
      assert.equal(taken.email, first.email, 'the address keeps its first spelling');
      const link = linkFrom(await smtp.nextMailTo(first.email));
      assert.equal((await post('/api/account/verify', { token: link.token, email: link.email })).statusCode, 200);
      assert.equal((await login(second.userName, 'An0therPass')).statusCode, 200);
    });

    test('an account once confirmed through its link is not taken over after an admin sets it back to unconfirmed', async () => {
      const owner = await register();
      const link = linkFrom(await smtp.nextMailTo(owner.email));
      assert.equal((await post('/api/account/verify', { token: link.token, email: link.email })).statusCode, 200);
      const row = (await userByName(ctx.app, owner.userName))!;
      // Verifying signs in at the registration's own instant, so only the used link tells it apart.
      await ctx.app.db.update(users).set({ emailConfirmed: false }).where(eq(users.id, row.id));
      const again = await register({}, { email: owner.email });
      assert.equal(again.response.statusCode, 400, again.response.body);
      assert.equal((await userRow(ctx.app, row.id))!.userName, owner.userName);
    });

    test('with admin confirmation (no mail) or active accounts, an unconfirmed address is never taken over', async () => {
      for (const policy of [
        { activeOnRegister: false, emailConfirmationRequired: false },
        { activeOnRegister: true, emailConfirmationRequired: false },
      ]) {
        await setPolicy(ctx.app, { ...CONFIRM, activeOnRegister: false, emailConfirmationRequired: false });
        const first = await register();
        const row = (await userByName(ctx.app, first.userName))!;
        await setPolicy(ctx.app, policy);
        const again = await register({}, { email: first.email, password: 'An0therPass' });
        assert.equal(again.response.statusCode, 400, `${JSON.stringify(policy)}: ${again.response.body}`);
        assert.equal(cookieFrom(again.response), '', 'nobody was signed in');
        assert.equal((await userRow(ctx.app, row.id))!.passwordHash, row.passwordHash);
      }
    });

    test('a reset link dies when the password is changed, or the address', async () => {
      const { user, cookie } = await asUser(ctx.app);
      await post('/api/account/recovery', { email: user.email });
      const beforeChange = linkFrom(await smtp.nextMailTo(user.email));
      const changed = await ctx.app.inject({
        method: 'PUT',
        url: '/api/account/changepassword',
        headers: { cookie },
        payload: { old: user.password, new: 'Chang3dPass' },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      const late = await post('/api/account/passwordreset', {
        password: 'Stol3nPass',
        email: beforeChange.email,
        rToken: beforeChange.token,
      });
      assert.equal(late.statusCode, 400, late.body);
      assert.equal((await login(user.userName, 'Chang3dPass')).statusCode, 200);

      await post('/api/account/recovery', { email: user.email });
      const oldAddress = linkFrom(await smtp.nextMailTo(user.email));
      const newMail = `${uniqueName('moved')}@example.net`;
      await ctx.app.inject({
        method: 'PUT',
        url: '/api/account/changeemail',
        headers: { cookie },
        payload: { newMail },
      });
      const confirm = linkFrom(await smtp.nextMailTo(newMail));
      const moved = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/mailchangeconfirm',
        headers: { cookie },
        payload: { token: confirm.token, email: confirm.email },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      for (const email of [oldAddress.email, base64(newMail)]) {
        const reset = await post('/api/account/passwordreset', {
          password: 'Stol3nPass',
          email,
          rToken: oldAddress.token,
        });
        assert.equal(reset.statusCode, 400, reset.body);
      }
      assert.equal((await login(user.userName, 'Chang3dPass')).statusCode, 200);
    });

    test('tokens are stored hashed with a 3-hour expiry', async () => {
      const user = await createUser(ctx.app);
      await post('/api/account/recovery', { email: user.email });
      const link = linkFrom(await smtp.nextMailTo(user.email));
      const [row] = await ctx.app.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
      assert.equal(row?.tokenHash, hashToken(link.token));
      const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
      assert.ok(Math.abs(lifetime - 3 * 60 * 60 * 1000) < 5_000, `lifetime ${lifetime}`);
      assert.equal((await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).length, 0);
    });
  });

  describe(`mail links without PUBLIC_URL (${engine.name})`, () => {
    let ctx: TestApp;
    let smtp: MailServer;
    before(async () => {
      smtp = await startMailServer();
      ctx = await createTestApp(engine, {
        env: testEnv({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_SECURE: 'false', PORT: '18123' }),
        rateLimit: { disabled: true },
      });
      await setPolicy(ctx.app, { ...DEFAULT_SETTINGS.accountPolicy, ...CONFIRM });
    });
    after(async () => {
      await ctx.close();
      await smtp.close();
    });

    test("a reset link never takes its host from the request's Host header", async () => {
      const user = await createUser(ctx.app);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/recovery',
        headers: { host: 'evil.example' },
        payload: { email: user.email },
      });
      assert.equal(response.statusCode, 200, response.body);
      const link = linkFrom(await smtp.nextMailTo(user.email));
      assert.equal(link.url.origin, 'http://localhost:18123');
    });
  });
}
