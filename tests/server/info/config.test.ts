import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/database';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';

for (const engine of engines()) {
  describe(`GET /api/config (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    test('answers the spec §9 defaults on a fresh database', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/config' });
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assertMatchesContract('infoGetClientConfig', body);
      assert.deepEqual(body, {
        title: 'GZ',
        slogan: 'Hack for fun not for profit',
        footerInfo: null,
        customTheme: null,
        apiPublicKey: null,
        logoUrl: null,
        portMapping: 'Default',
        defaultLifetime: 120,
        extensionDuration: 120,
        renewalWindow: 10,
      });
    });

    test('reflects settings stored in the config table', async () => {
      await ctx.app.settings.update({
        globalConfig: { title: 'Night CTF', footerInfo: '**hello**' },
        containerPolicy: { renewalWindow: 15 },
      });
      const body = (await ctx.app.inject({ method: 'GET', url: '/api/config' })).json();
      assertMatchesContract('infoGetClientConfig', body);
      assert.equal(body.title, 'Night CTF');
      assert.equal(body.footerInfo, '**hello**');
      assert.equal(body.renewalWindow, 15);
      assert.equal(body.slogan, 'Hack for fun not for profit', 'unchanged settings keep their defaults');
    });

    test('reads the stored rows, not a copy in memory', async () => {
      ctx.app.settings.invalidate();
      const body = (await ctx.app.inject({ method: 'GET', url: '/api/config' })).json();
      assert.equal(body.title, 'Night CTF');
    });
  });
}
