import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EnvError, loadEnv } from '../../../server/src/env';
import { passwordProblem } from '../../../server/src/lib/password';
import { startServer } from '../../../server/src/main';
import { ADMIN_EMAIL, bootstrapAdmin, generatePassword } from '../../../server/src/plugins/app/admin-bootstrap';
import { engines } from '../helpers/database';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { createUser, signIn } from '../helpers/users';
import { accountCounts, userByName } from './support';

test('generated passwords are long and meet the password rules', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const password = generatePassword();
    assert.equal(password.length, 20);
    assert.equal(passwordProblem(password), undefined);
    seen.add(password);
  }
  assert.equal(seen.size, 200);
});

for (const engine of engines()) {
  describe(`first admin (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    test('a fresh database gets Admin with a generated password, once', async () => {
      const first = await bootstrapAdmin(ctx.app.db, { adminPassword: undefined });
      assert.equal(first.created, true);
      assert.ok(first.generatedPassword);
      const admin = (await userByName(ctx.app, 'Admin'))!;
      assert.equal(admin.role, 'Admin');
      assert.equal(admin.email, ADMIN_EMAIL);
      assert.equal(admin.emailConfirmed, true);
      assert.ok(!admin.passwordHash.includes(first.generatedPassword));
      const cookie = await signIn(ctx.app, 'Admin', first.generatedPassword);
      const users = await ctx.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie } });
      assert.ok(![401, 403].includes(users.statusCode));

      const again = await bootstrapAdmin(ctx.app.db, { adminPassword: undefined });
      assert.deepEqual(again, { created: false });
    });

    test('ADMIN_PASSWORD creates Admin only while no user of that name exists', async () => {
      // The previous test's Admin exists: nothing happens, its password stays.
      const before = await accountCounts(ctx.app);
      assert.deepEqual(await bootstrapAdmin(ctx.app.db, { adminPassword: 'Fr0mTheEnv' }), { created: false });
      assert.deepEqual(await accountCounts(ctx.app), before);
      await assert.rejects(signIn(ctx.app, 'Admin', 'Fr0mTheEnv'), /401/);
    });
  });

  describe(`ADMIN_PASSWORD on a database with users (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    test('without ADMIN_PASSWORD nothing is created once users exist', async () => {
      await createUser(ctx.app);
      assert.deepEqual(await bootstrapAdmin(ctx.app.db, { adminPassword: undefined }), { created: false });
      assert.equal(await userByName(ctx.app, 'Admin'), undefined);
    });

    test('with ADMIN_PASSWORD, Admin is created alongside existing users and can sign in', async () => {
      assert.deepEqual(await bootstrapAdmin(ctx.app.db, { adminPassword: 'Fr0mTheEnv' }), { created: true });
      await signIn(ctx.app, 'admin', 'Fr0mTheEnv');
      assert.equal((await userByName(ctx.app, 'Admin'))!.role, 'Admin');
    });
  });
}

test('startServer creates the first admin and hands the generated password back (not to the log)', async () => {
  const env = testEnv({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '' });
  const server = await startServer(env);
  try {
    assert.ok(server.initialAdminPassword);
    const response = await fetch(
      `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}/api/account/login`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userName: 'Admin', password: server.initialAdminPassword }),
      },
    );
    assert.equal(response.status, 200);
    assert.match(response.headers.get('set-cookie') ?? '', /^GZCTF_Token=/);
  } finally {
    await server.close();
    fs.rmSync(env.dataDir, { recursive: true, force: true });
  }
});

describe('account settings in the environment', () => {
  test('defaults', () => {
    const env = loadEnv({});
    assert.equal(env.adminPassword, undefined);
    assert.equal(env.cookieSecure, false);
    assert.equal(env.disableRateLimit, false);
    assert.equal(env.trustProxy, false);
    assert.equal(env.smtp, undefined);
    assert.deepEqual(env.captcha, {
      provider: 'None',
      siteKey: '',
      turnstileSecret: undefined,
      turnstileVerifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      hashPowDifficulty: 18,
    });
  });

  test('SMTP, captcha, proxy and flags', () => {
    const env = loadEnv({
      SMTP_HOST: 'smtp.example.org',
      SMTP_PORT: '465',
      SMTP_USER: 'ctf@example.org',
      SMTP_PASSWORD: 'secret',
      COOKIE_SECURE: 'yes',
      DISABLE_RATE_LIMIT: '1',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      CAPTCHA_PROVIDER: 'HashPow',
      HASHPOW_DIFFICULTY: '20',
      ADMIN_PASSWORD: 'Adm1nPassword',
    });
    assert.deepEqual(env.smtp, {
      host: 'smtp.example.org',
      port: 465,
      secure: true,
      user: 'ctf@example.org',
      password: 'secret',
      from: 'ctf@example.org',
      bypassCertVerify: false,
    });
    assert.equal(env.cookieSecure, true);
    assert.equal(env.disableRateLimit, true);
    assert.deepEqual(env.trustProxy, ['10.0.0.0/8', '127.0.0.1']);
    assert.equal(env.captcha.provider, 'HashPow');
    assert.equal(env.captcha.hashPowDifficulty, 20);
    assert.equal(env.adminPassword, 'Adm1nPassword');
    assert.equal(loadEnv({ SMTP_HOST: 'mail', SMTP_SECURE: 'false', SMTP_PORT: '465' }).smtp?.secure, false);
    assert.equal(loadEnv({ SMTP_HOST: 'mail' }).smtp?.port, 587);
    assert.equal(loadEnv({ TRUST_PROXY: 'true' }).trustProxy, true);
  });

  test('bad values are reported by name', () => {
    assert.throws(
      () =>
        loadEnv({
          ADMIN_PASSWORD: 'short',
          COOKIE_SECURE: 'maybe',
          CAPTCHA_PROVIDER: 'Recaptcha',
          HASHPOW_DIFFICULTY: '64',
          TURNSTILE_VERIFY_URL: 'not a url',
          SMTP_PORT: '0',
        }),
      (error: unknown) => {
        assert.ok(error instanceof EnvError);
        const names = error.problems.map((problem) => problem.split(':')[0]).sort();
        assert.deepEqual(names, [
          'ADMIN_PASSWORD',
          'CAPTCHA_PROVIDER',
          'COOKIE_SECURE',
          'HASHPOW_DIFFICULTY',
          'SMTP_PORT',
          'TURNSTILE_VERIFY_URL',
        ]);
        assert.match(error.message, /ADMIN_PASSWORD: needs at least 6 characters/);
        return true;
      },
    );
  });
});
