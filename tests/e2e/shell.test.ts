import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decompressFromUTF16 } from 'lz-string';
import type { Page } from 'playwright-core';
import { startPlatform, type Platform } from './helpers/platform';

const STORAGE_KEY = 'persist:gzctf';

/** The stored local cache, decoded slice by slice (each is compressed on its own). */
async function storedCache(page: Page): Promise<{ raw: string | null; slices: Record<string, unknown> }> {
  const raw = await page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(STORAGE_KEY)})`);
  if (!raw) return { raw, slices: {} };
  const outer = JSON.parse(raw) as Record<string, string>;
  const slices = Object.fromEntries(
    Object.entries(outer).map(([key, value]) => [key, JSON.parse(decompressFromUTF16(JSON.parse(value) as string))]),
  );
  return { raw, slices };
}

async function waitForStored(page: Page, check: (slices: Record<string, unknown>) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { slices } = await storedCache(page);
    if (check(slices)) return slices;
    assert.ok(Date.now() < deadline, `the cache never held what was expected: ${JSON.stringify(slices)}`);
    await page.waitForTimeout(100);
  }
}

// Browser-side expressions are strings: this file is type-checked with the server's (DOM-less) settings.
const documentLanguage = (page: Page) => page.evaluate<string>('document.documentElement.lang');
const bodyBackground = (page: Page) => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');

const preferences = (slices: Record<string, unknown>) => (slices.preferences ?? {}) as Record<string, unknown>;

describe('the application shell in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
    await platform.server.app.settings.update({
      globalConfig: { title: 'Shell Test', slogan: 'Frames for every page', footerInfo: 'Run by **the club**' },
    });
  });
  after(async () => platform.close());

  async function openHome(): Promise<Page> {
    const page = await platform.newPage();
    await page.goto('/');
    await page.getByTestId('platform-title').filter({ hasText: 'Shell Test' }).waitFor();
    return page;
  }

  test('looks right in the dark (default) and light schemes, wide and narrow', async () => {
    const page = await openHome();
    assert.equal(await documentLanguage(page), 'en-US');
    const background = () => bodyBackground(page);
    assert.equal(await background(), 'rgb(18, 20, 23)', 'dark is the default');
    await page.getByText('the club').waitFor();
    await platform.screenshot(page, 'shell-dark-wide');

    await page.setViewportSize({ width: 375, height: 760 });
    await platform.screenshot(page, 'shell-dark-narrow');
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Teams' }).waitFor();
    await page.waitForTimeout(400);
    await platform.screenshot(page, 'shell-dark-narrow-drawer');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'About' }).click();
    await page.getByRole('heading', { name: 'About', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Switch to the light colour scheme' }).click();
    assert.equal(await background(), 'rgb(255, 255, 255)');
    await platform.screenshot(page, 'shell-light-narrow-about');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByTestId('platform-title').waitFor();
    await platform.screenshot(page, 'shell-light-wide');

    await page.getByRole('button', { name: 'Appearance settings' }).click();
    await page.getByRole('radio', { name: 'My own colour' }).check();
    await page.getByRole('textbox', { name: 'Colour', exact: true }).fill('not a colour');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('followed by six hex digits').waitFor();
    await platform.screenshot(page, 'shell-light-appearance-invalid');
    await page.getByRole('textbox', { name: 'Colour', exact: true }).fill('#7950f2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await platform.screenshot(page, 'shell-light-custom-colour');
    await page.context().close();
  });

  test('choosing fr-FR asks for confirmation, and cancelling returns to English', async () => {
    const page = await openHome();
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: /Français/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Langue traduite automatiquement' });
    await dialog.waitFor();
    assert.equal(await documentLanguage(page), 'fr-FR');
    // Behind the modal the page is hidden from assistive technology, but it is in French already.
    await page.getByRole('link', { name: 'Accueil', includeHidden: true }).waitFor({ state: 'attached' });
    await platform.screenshot(page, 'shell-fr-confirmation');

    await dialog.getByRole('button', { name: 'Revenir à l’anglais' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Home' }).waitFor();
    assert.equal(await documentLanguage(page), 'en-US');
    await page.getByRole('button', { name: 'Language' }).waitFor();
    await waitForStored(page, (slices) => preferences(slices).language === 'en-US');
    await page.context().close();
  });

  test('the local cache is compressed in localStorage and survives a reload', async () => {
    const page = await openHome();
    await page.getByRole('button', { name: 'Switch to the light colour scheme' }).click();
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: /Deutsch/ }).click();
    await page.getByRole('button', { name: 'Sprache beibehalten' }).click();
    await page.getByRole('link', { name: 'Startseite' }).waitFor();
    const slices = await waitForStored(
      page,
      (stored) => preferences(stored).language === 'de-DE' && preferences(stored).colorScheme === 'light',
    );
    const { raw } = await storedCache(page);
    assert.ok(
      raw && !raw.includes('de-DE') && !raw.includes('light') && !raw.includes('Shell Test'),
      'stored compressed',
    );
    assert.match(JSON.stringify(slices.api), /Shell Test/, 'the client config is part of the cache');

    // The API is slow now: what shows at once must come from the cache.
    await page.route('**/api/config', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4000));
      await route.continue();
    });
    await page.reload();
    await page.getByTestId('app-title').filter({ hasText: 'Shell Test::CTF' }).waitFor({ timeout: 2500 });
    await page.getByRole('link', { name: 'Startseite' }).waitFor({ timeout: 2500 });
    assert.equal(await documentLanguage(page), 'de-DE');
    assert.equal(await bodyBackground(page), 'rgb(255, 255, 255)');
    await platform.screenshot(page, 'shell-de-light-after-reload');
    await page.context().close();
  });

  test('a render failure shows the error screen, and "clean cache" empties the stored cache', async () => {
    const page = await openHome();
    // What storage holds as each document starts, before our code runs.
    await page.addInitScript(`window.storedAtStart = localStorage.getItem(${JSON.stringify(STORAGE_KEY)});`);
    await page.getByRole('button', { name: 'Switch to the light colour scheme' }).click();
    await waitForStored(page, (slices) => preferences(slices).colorScheme === 'light');

    // A config React cannot render: the title is an object.
    await page.route('**/api/config', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"title":{"x":1},"slogan":"s"}' }),
    );
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.reload();
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    // The production build of React reports it as error #31 ("Objects are not valid as a React child").
    assert.match(await page.getByTestId('error-message').innerText(), /React error #31|Objects are not valid/);
    assert.ok((await page.getByTestId('error-stack').innerText()).length > 50, 'a stack trace is shown');
    assert.equal(
      await page.evaluate<string>(`getComputedStyle(document.querySelector('[data-testid="error-stack"]')).overflow`),
      'auto',
    );
    assert.ok(
      (await page.evaluate<string | null>('window.storedAtStart')) !== null,
      'the cache was there when the page started',
    );
    await platform.screenshot(page, 'shell-error-screen');

    await page.unroute('**/api/config');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Clean cache' }).click()]);
    assert.equal(
      await page.evaluate<string | null>('window.storedAtStart'),
      null,
      'the stored cache was empty when the page came back',
    );
    await page.getByTestId('platform-title').filter({ hasText: 'Shell Test' }).waitFor();
    assert.equal(await bodyBackground(page), 'rgb(18, 20, 23)', 'the light scheme went with the cache');
    assert.deepEqual(pageErrors, []);
    await page.context().close();
  });

  test('an unknown path shows the not-found page, case-insensitive routes still match', async () => {
    const page = await platform.newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await platform.screenshot(page, 'shell-not-found');
    await page.goto('/ABOUT');
    await page.getByRole('heading', { name: 'About', level: 1 }).waitFor();
    await page.goto('/GAMES');
    await page.getByRole('heading', { name: 'Games', level: 1 }).waitFor();
    await page.context().close();
  });
});
