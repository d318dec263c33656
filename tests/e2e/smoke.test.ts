import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPlatform, type Platform } from './helpers/platform';
import { scriptsOverTheWire } from './helpers/wire';
import { HOME_JS_TARGET_KB } from '../bench/bundle';

describe('the served app in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
    // A title nobody would guess proves the page shows what /api/config says, not a built-in default.
    await platform.server.app.settings.update({ globalConfig: { title: 'Smoke Test', slogan: 'Served live' } });
  });
  after(async () => platform.close());

  test('the home page shows the title and slogan from /api/config', async () => {
    const page = await platform.newPage();
    const configResponse = page.waitForResponse((response) => response.url().endsWith('/api/config'));
    await page.goto('/');
    assert.equal((await configResponse).status(), 200);
    await page.getByTestId('platform-title').filter({ hasText: 'Smoke Test' }).waitFor();
    await page.getByText('Served live').waitFor();
    assert.equal(await page.title(), 'Smoke Test::CTF');
    await platform.screenshot(page, 'home');
    assert.deepEqual(platform.cspViolations, [], 'the page runs within its Content-Security-Policy');
  });

  test(`the home page's JavaScript is at most ${HOME_JS_TARGET_KB} KB as sent over the wire`, async () => {
    // A size budget, not a timing: what a browser downloads before the home page is usable.
    const page = await platform.newPage();
    const scripts = await scriptsOverTheWire(page, '/', () =>
      page.getByTestId('platform-title').filter({ hasText: 'Smoke Test' }).waitFor(),
    );
    assert.ok(scripts.length > 0);
    for (const script of scripts) {
      assert.ok(script.encoding === 'br' || script.encoding === 'gzip' || script.decoded < 1024, script.url);
    }
    const wire = scripts.reduce((sum, script) => sum + script.wire, 0);
    assert.ok(
      wire <= HOME_JS_TARGET_KB * 1000,
      `home page JavaScript: ${wire} bytes over the wire in ${scripts.length} scripts (budget ${HOME_JS_TARGET_KB} KB)`,
    );
  });

  test('an unknown path shows the not-found page', async () => {
    const page = await platform.newPage();
    const response = await page.goto('/no/such/page');
    assert.equal(response?.status(), 200, 'the SPA shell is served for client routes');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await platform.screenshot(page, 'not-found');
  });

  test('language files are served from /static/ under content-hashed names', async () => {
    const page = await platform.newPage();
    const languageFile = page.waitForResponse((response) => /\/static\/en-US\.[0-9a-f]{8}\.json$/.test(response.url()));
    await page.goto('/');
    const response = await languageFile;
    assert.equal(response.status(), 200);
    assert.match(response.headers()['cache-control'] ?? '', /immutable/);
    const dictionary = (await response.json()) as { common?: { notFound?: { title?: string } } };
    assert.equal(dictionary.common?.notFound?.title, 'Page not found');
  });
});
