import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, signIn, uniqueName } from '../server/helpers/users';
import { startPlatform, type Platform } from './helpers/platform';

describe('payload encryption in Chromium (reference §1.5)', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform({ env: { XOR_KEY: 'e2e-xor-key' } });
  });
  after(async () => platform.close());

  test('with encryption on, the login form sends the password encrypted and signs in', async () => {
    const app = platform.server.app;
    const admin = await signIn(app, platform.admin.userName, platform.admin.password);
    const current = await app.inject({ method: 'GET', url: '/api/admin/config', headers: { cookie: admin } });
    const { globalConfig } = current.json() as { globalConfig: Record<string, unknown> };
    const switched = await app.inject({
      method: 'PUT',
      url: '/api/admin/config',
      headers: { cookie: admin },
      payload: { globalConfig: { ...globalConfig, apiEncryption: true } },
    });
    assert.equal(switched.statusCode, 200);
    const user = await createUser(app, { userName: uniqueName('crypt'), password: 'Crypt-Passw0rd' });

    const page = await platform.newPage();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/account/login')) sent.push(request.postData() ?? '');
    });
    await page.goto('/account/login');
    await page.getByLabel(/^User name or e-mail/).fill(user.userName);
    await page.getByLabel(/^Password/).fill('Crypt-Passw0rd');
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: `Profile: ${user.userName}` }).waitFor();

    assert.equal(sent.length, 1);
    const body = JSON.parse(sent[0]!) as { userName: string; password: string };
    assert.equal(body.userName, user.userName);
    assert.doesNotMatch(sent[0]!, /Crypt-Passw0rd/, 'the password never travels in plain text');
    assert.ok(Buffer.from(body.password, 'base64').length >= 32 + 12 + 16);
  });
});
