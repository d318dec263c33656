import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../../server/src/db/schema';
import { createUser, uniqueName } from '../server/helpers/users';
import { startPlatform, type Platform, signInWithApi } from './helpers/platform';

/**
 * What the users grid shows at 1440 px, measured in the page: its width, and every header and every
 * date cell whose text is wider than its box (cut off or ellipsed). A string: this file is compiled
 * without the DOM's types.
 */
const MEASURE = `(() => {
  const grid = document.querySelector('[role="grid"][aria-label="Users"]');
  const clipped = (element) => element.scrollWidth > element.clientWidth + 1;
  const texts = (selector) => [...grid.querySelectorAll(selector)].filter(clipped).map((element) => element.textContent);
  return {
    width: grid.getBoundingClientRect().width,
    clippedHeaders: texts('.MuiDataGrid-columnHeaderTitle'),
    clippedCells: texts('[role="gridcell"][data-field="lastVisitedUtc"] p, [role="gridcell"][data-field="registerTimeUtc"]'),
  };
})()`;

describe('the admin users grid at 1440 px', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('columns fit their content, the grid uses the width, and sorting asks the server', async () => {
    const app = platform.server.app;
    for (let i = 0; i < 6; i++) {
      const user = await createUser(app, { userName: uniqueName(i % 2 ? 'Grid' : 'grid') });
      await app.db
        .update(users)
        .set({ realName: `Person With A Long Name ${i}`, stdNumber: `2024-CS-${1000 + i}`, ip: '203.0.113.254' })
        .where(eq(users.id, user.id));
    }

    const page = await platform.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInWithApi(platform, page, platform.admin.userName, platform.admin.password);
    await page.goto('/admin/users');
    const grid = page.getByRole('grid', { name: 'Users' });
    await grid.getByText('Person With A Long Name 5').waitFor();

    const measured = (await page.evaluate(MEASURE)) as {
      width: number;
      clippedHeaders: string[];
      clippedCells: string[];
    };
    await platform.screenshot(page, 'admin-users-1440');
    assert.ok(measured.width > 1300, `the grid spans the page (${measured.width} px)`);
    assert.deepEqual(measured.clippedHeaders, [], 'no header is cut');
    assert.deepEqual(measured.clippedCells, [], 'no date is cut');

    const sorted = page.waitForResponse((response) => /\/api\/admin\/users\?.*sort=userName/.test(response.url()));
    await grid.getByRole('columnheader', { name: 'User name' }).click();
    const url = new URL((await sorted).url());
    assert.equal(url.searchParams.get('order'), 'asc');
    await grid.getByRole('columnheader', { name: 'User name' }).and(page.locator('[aria-sort="ascending"]')).waitFor();
    const names = await grid.locator('[data-field="userName"][role="gridcell"]').allTextContents();
    const expected = [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    assert.deepEqual(names, expected, 'rows come back in name order, case-insensitively');
  });
});
