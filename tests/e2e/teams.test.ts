import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { createUser, uniqueName } from '../server/helpers/users';
import { dismissNotifications } from './helpers/notifications';
import { startPlatform, type Platform, signInWithApi } from './helpers/platform';

const card = (page: Page, name: string): Locator => page.getByRole('article', { name });

async function confirm(page: Page, title: string, button: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: button }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the teams page in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('create, invite, join, transfer the captaincy, kick, and the admin locks the team', async () => {
    const app = platform.server.app;
    const alice = await createUser(app, { userName: uniqueName('alice') });
    const bob = await createUser(app, { userName: uniqueName('bob') });
    const teamName = `Red ${uniqueName('t').slice(1, 7)}`;

    // Signed out: a prompt, not an empty page.
    const visitor = await platform.newPage();
    await visitor.goto('/teams');
    await visitor.getByRole('heading', { name: 'Sign in to see your teams' }).waitFor();
    await platform.screenshot(visitor, 'teams-signed-out');
    await visitor.context().close();

    // Alice creates the team and copies its invite code.
    const a = await platform.newPage();
    await a.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInWithApi(platform, a, alice.userName, alice.password);
    await a.goto('/teams');
    await a.getByRole('heading', { name: 'You are not in a team yet' }).waitFor();
    await a.getByRole('button', { name: 'Create team' }).click();
    const create = a.getByRole('dialog', { name: 'Create a team' });
    await create.getByRole('textbox', { name: 'Team name' }).fill(teamName);
    await create.getByRole('textbox', { name: 'Bio' }).fill('We break things, politely.');
    await create.getByRole('button', { name: 'Create' }).click();
    await card(a, teamName).waitFor();
    await card(a, teamName)
      .getByRole('button', { name: `Manage ${teamName}` })
      .click();
    const manage = a.getByRole('dialog', { name: `Manage ${teamName}` });
    const codeBox = manage.getByRole('textbox', { name: 'Invite code' });
    await codeBox.and(a.locator('[value*=":"]')).waitFor();
    await manage.getByRole('button', { name: 'Copy the invite code' }).click();
    await manage.getByRole('button', { name: 'Copied' }).waitFor();
    const code = await a.evaluate<string>('navigator.clipboard.readText()');
    assert.equal(code, await codeBox.inputValue());
    assert.match(code, new RegExp(`^${teamName}:\\d+:[0-9a-f]{32}$`));
    await platform.screenshot(a, 'teams-manage-captain');
    await dismissNotifications(a);
    await manage.getByRole('button', { name: 'Close' }).click();
    await manage.waitFor({ state: 'detached' });

    // Bob joins with the code.
    const b = await platform.newPage();
    await signInWithApi(platform, b, bob.userName, bob.password);
    await b.goto('/teams');
    await b.getByRole('button', { name: 'Join team' }).click();
    const join = b.getByRole('dialog', { name: 'Join a team' });
    await join.getByRole('textbox', { name: 'Invite code' }).fill(code);
    await join.getByRole('button', { name: 'Join' }).click();
    await b.getByText(`You joined ${teamName}.`).waitFor();
    await card(b, teamName)
      .getByRole('button', { name: `Leave ${teamName}` })
      .waitFor();
    await card(b, teamName).getByText(alice.userName).waitFor();
    await platform.screenshot(b, 'teams-member');

    // Alice hands the captaincy to Bob; her card becomes a member's.
    await a.reload();
    await card(a, teamName).getByText(bob.userName).waitFor();
    await card(a, teamName)
      .getByRole('button', { name: `Manage ${teamName}` })
      .click();
    await manage.getByRole('button', { name: `Make ${bob.userName} captain` }).click();
    await confirm(a, 'Hand over the captaincy?', 'Make captain');
    await manage.waitFor({ state: 'detached' });
    await card(a, teamName)
      .getByRole('button', { name: `Leave ${teamName}` })
      .waitFor();

    // Bob, now captain, removes Alice.
    await b.reload();
    await card(b, teamName)
      .getByRole('button', { name: `Manage ${teamName}` })
      .click();
    const bobManage = b.getByRole('dialog', { name: `Manage ${teamName}` });
    await bobManage.getByRole('button', { name: `Remove ${alice.userName} from the team` }).click();
    await confirm(b, 'Remove this member?', 'Remove');
    await bobManage.getByText(alice.userName).waitFor({ state: 'detached' });
    await platform.screenshot(b, 'teams-manage-after-kick');
    await dismissNotifications(b);
    await bobManage.getByRole('button', { name: 'Close' }).click();
    await a.reload();
    await a.getByRole('heading', { name: 'You are not in a team yet' }).waitFor();

    // The admin finds the team and locks it.
    const admin = await platform.newPage();
    await signInWithApi(platform, admin, platform.admin.userName, platform.admin.password);
    await admin.goto('/admin/teams');
    await admin.getByRole('searchbox', { name: 'Search teams' }).fill(teamName);
    const grid = admin.getByRole('grid', { name: 'Teams' });
    const lock = grid.getByRole('switch', { name: `Lock team ${teamName}` });
    await lock.waitFor();
    assert.equal(await lock.isChecked(), false);
    await lock.click();
    await admin.getByText('The team is locked.').waitFor();
    // Waited for, not read at once: the search's own list, asked for as the switch was flipped, can
    // arrive with the row as it was just before the answer to the change re-applies it.
    await grid.getByRole('switch', { name: `Lock team ${teamName}`, checked: true }).waitFor();
    await platform.screenshot(admin, 'admin-teams-locked');
    await admin.reload();
    await admin.getByRole('searchbox', { name: 'Search teams' }).fill(teamName);
    await grid.getByRole('switch', { name: `Lock team ${teamName}`, checked: true }).waitFor();

    await b.reload();
    await card(b, teamName).getByText('Locked').waitFor();
    await platform.screenshot(b, 'teams-locked');
    await b.setViewportSize({ width: 390, height: 800 });
    await card(b, teamName)
      .getByRole('button', { name: `Manage ${teamName}` })
      .click();
    await b
      .getByRole('dialog', { name: `Manage ${teamName}` })
      .getByText('This team is locked')
      .waitFor();
    await platform.screenshot(b, 'teams-manage-narrow');
    for (const page of [a, b, admin]) await page.context().close();
  });
});
