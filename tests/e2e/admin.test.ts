import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser, uniqueName } from '../server/helpers/users';
import { startPlatform, type Platform, signInThroughUi, signInWithApi } from './helpers/platform';

/** Waits for a dialog to close (MUI keeps it for its exit transition). */
const closed = (page: Page, name: string) => page.getByRole('dialog', { name }).waitFor({ state: 'detached' });

describe('the admin pages in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('an admin finds a user, changes the role and resets the password; the user signs in with it', async () => {
    const app = platform.server.app;
    // A few others, so the search has something to leave out.
    for (let i = 0; i < 4; i++) await createUser(app, { userName: uniqueName('crowd') });
    const target = await createUser(app, { userName: uniqueName('zoe'), password: 'Old-Passw0rd' });

    const page = await platform.newPage();
    await signInWithApi(platform, page, platform.admin.userName, platform.admin.password);
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin', exact: true }).first().click();
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('tab', { name: 'Users' }).click();
    const grid = page.getByRole('grid', { name: 'Users' });
    await grid.getByText(target.userName, { exact: true }).waitFor();
    await platform.screenshot(page, 'admin-users');

    await page.getByRole('searchbox', { name: 'Search users' }).fill(target.userName.slice(0, 6));
    await page.getByRole('status').filter({ hasText: 'Search results: 1' }).waitFor();
    const row = grid.getByRole('row').filter({ hasText: target.userName });
    assert.equal(
      await grid.getByRole('row').filter({ hasText: 'crowd' }).count(),
      0,
      'the search leaves the others out',
    );
    await row.getByText(target.email).waitFor();

    await row.getByRole('menuitem', { name: `Edit ${target.userName}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${target.userName}` });
    await edit.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Monitor' }).click();
    await edit.getByRole('textbox', { name: 'Real name' }).fill('Zoe Tester');
    await platform.screenshot(page, 'admin-user-edit');
    await edit.getByRole('button', { name: 'Save' }).click();
    await closed(page, `Edit ${target.userName}`);
    await row.getByText('Monitor').waitFor();
    await row.getByText('Zoe Tester').waitFor();
    const stored = await page.request.get(`/api/admin/users/${target.id}`);
    assert.equal(((await stored.json()) as { role: string }).role, 'Monitor');

    await row.getByRole('menuitem', { name: `Reset the password of ${target.userName}` }).click();
    await page
      .getByRole('dialog', { name: 'Reset the password?' })
      .getByRole('button', { name: 'Reset password' })
      .click();
    const shown = page.getByRole('dialog', { name: 'New password' });
    const password = await shown.getByRole('textbox', { name: 'New password' }).inputValue();
    assert.equal(password.length, 16);
    await platform.screenshot(page, 'admin-user-password');
    await shown.getByRole('button', { name: 'Close' }).click();
    await closed(page, 'New password');

    const user = await platform.newPage();
    const refused = await user.request.post('/api/account/login', {
      data: { userName: target.userName, password: 'Old-Passw0rd' },
    });
    assert.equal(refused.status(), 401, 'the old password no longer works');
    await signInThroughUi(user, target.userName, password);
    await user.context().close();

    // Narrow, and in Chinese: the grid's own texts (pagination) follow the language too.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: /简体中文/ }).click();
    await page.getByRole('heading', { name: '管理', level: 1 }).waitFor();
    // The "rows per page" label is hidden on narrow screens, but it is there, in Chinese.
    await page.getByText('每页行数', { exact: false }).waitFor({ state: 'attached' });
    await page.getByRole('searchbox', { name: '搜索用户' }).fill('');
    await page.getByRole('grid', { name: '用户' }).getByText('Admin', { exact: true }).waitFor();
    await platform.screenshot(page, 'admin-users-zh-narrow');
    await page.context().close();
  });

  test('settings: a bad colour is refused, a new title reaches the app bar; logs and files show', async () => {
    const page = await platform.newPage();
    await signInWithApi(platform, page, platform.admin.userName, platform.admin.password);
    await page.goto('/admin/settings');
    const platformSection = page.getByRole('region', { name: 'Platform' });
    await platformSection.getByRole('textbox', { name: 'Title', exact: true }).waitFor();

    await platformSection.getByRole('textbox', { name: 'Theme colour', exact: true }).fill('#12345');
    await platformSection.getByRole('button', { name: 'Save' }).click();
    await platformSection.getByText('six hex digits').waitFor();
    await platform.screenshot(page, 'admin-settings-invalid-colour');

    await platformSection.getByRole('textbox', { name: 'Theme colour', exact: true }).fill('#7950f2');
    await platformSection.getByRole('textbox', { name: 'Title', exact: true }).fill('Admin E2E');
    await platformSection.getByRole('textbox', { name: 'Footer (markdown)' }).fill('Run by **the club**');
    await platformSection.getByTestId('footer-preview').locator('strong', { hasText: 'the club' }).waitFor();
    await platformSection.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The settings were saved.').waitFor();
    await page.getByTestId('app-title').filter({ hasText: 'Admin E2E::CTF' }).waitFor();
    const settings = await platform.server.app.settings.get();
    assert.equal(settings.globalConfig.customTheme, '#7950f2');

    const containers = page.getByRole('region', { name: 'Containers' });
    await containers.getByRole('spinbutton', { name: 'Renewal window' }).fill('999');
    await containers.getByText('A whole number from 1 to 360.').waitFor();
    await containers.getByRole('button', { name: 'Save' }).click();
    assert.equal((await platform.server.app.settings.get()).containerPolicy.renewalWindow, 10, 'nothing was saved');
    await page.waitForTimeout(300);
    await platform.screenshot(page, 'admin-settings');

    // The log sink writes in batches; make this one visible now.
    await platform.server.app.logSink.flush();
    await page.getByRole('tab', { name: 'Logs' }).click();
    const logs = page.getByRole('grid', { name: 'Logs' });
    await logs.getByText('Settings updated: globalConfig').first().waitFor();
    await page.getByRole('button', { name: 'Warning' }).click();
    await page.getByRole('button', { name: 'All' }).click();
    await logs.getByText('Settings updated: globalConfig').first().waitFor();
    await platform.screenshot(page, 'admin-logs');

    await page.getByRole('tab', { name: 'Files' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload files' }).click();
    await (
      await chooser
    ).setFiles([{ name: 'handout.txt', mimeType: 'text/plain', buffer: Buffer.from('a handout for the players\n') }]);
    await page.getByText('Files uploaded: 1.').waitFor();
    const files = page.getByRole('grid', { name: 'Files' });
    const link = files.getByRole('link', { name: 'handout.txt' });
    await link.waitFor();
    // Sizes are asked for one file at a time (a HEAD per row of a page had cost 50 requests of the limit).
    await files.getByRole('button', { name: 'Show the size of handout.txt' }).click();
    await files.getByText('26.00 B').waitFor();
    const href = await link.getAttribute('href');
    assert.match(href ?? '', /^\/assets\/[0-9a-f]{64}\/handout\.txt$/);
    assert.equal(await (await page.request.get(href!)).text(), 'a handout for the players\n');
    await platform.screenshot(page, 'admin-files');

    await files.getByRole('menuitem', { name: 'Delete handout.txt' }).click();
    const deleted = page.waitForResponse(
      (response) => response.request().method() === 'DELETE' && response.url().includes('/api/assets/'),
    );
    await page.getByRole('dialog', { name: 'Delete this file?' }).getByRole('button', { name: 'Delete' }).click();
    assert.equal((await deleted).status(), 200);
    await files.getByText('handout.txt').waitFor({ state: 'detached' });
    assert.equal((await page.request.get(href!)).status(), 404);
    await page.context().close();
    // The data grids, charts and dialogs above all styled themselves within the page's policy.
    assert.deepEqual(platform.cspViolations, []);
  });
});
