import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertOk, client } from '../server/edit/support';
import { newChallenge, newGame } from '../server/game/support';
import { createUser, signIn as apiSignIn, uniqueName } from '../server/helpers/users';
import { startPlatform, type Platform } from './helpers/platform';

const RIGHT_FLAG = 'flag{e2e_keyboard_only}';
/** Tab stops we allow between two targets; a page needing more is a page a keyboard user gives up on. */
const MAX_TABS = 40;

interface Focused {
  tag: string;
  name: string;
  /** The focus indicator as computed: the element's outline, or an MUI field's 2 px border. */
  outline: string;
  field: string | null;
}

// What has focus and how it shows, read in the page. (A string: this file is compiled without the
// DOM's types.) The name is what a sighted user reads: a label, an aria-label, or the text.
const READ_FOCUS = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const label = el.labels && el.labels[0] ? el.labels[0].textContent : null;
  const name = (el.getAttribute('aria-label') || label || el.textContent || '').replace(/[\\s*]+/g, ' ').trim();
  const style = getComputedStyle(el);
  const fieldset = el.closest('.MuiOutlinedInput-root')?.querySelector('fieldset');
  const border = fieldset ? getComputedStyle(fieldset) : null;
  return {
    tag: el.tagName.toLowerCase(),
    name,
    outline: style.outlineStyle === 'none' ? 'none' : style.outlineWidth + ' ' + style.outlineStyle + ' ' + style.outlineColor,
    field: border ? border.borderTopWidth + ' ' + border.borderTopStyle + ' ' + border.borderTopColor : null,
  };
})()`;

const focused = (page: Page) => page.evaluate<Focused | null>(READ_FOCUS);

type Want = { tag: string; name: string | RegExp };
const matches = (seen: Focused | null, want: Want) =>
  seen !== null &&
  seen.tag === want.tag &&
  (typeof want.name === 'string' ? seen.name === want.name : want.name.test(seen.name));

/** The focus is seen: a solid outline of 2 px or more, or (text fields) the 2 px focused border. */
function assertVisible(seen: Focused, step: string) {
  const wide = (value: string | null) => value !== null && /solid/.test(value) && parseFloat(value) >= 2;
  assert.ok(wide(seen.outline) || wide(seen.field), `${step}: focus on ${seen.tag} "${seen.name}" is not visible`);
}

/** Waits (focus moves after a page loads) until `want` has focus, and checks that it shows. */
async function expectFocus(page: Page, want: Want, step: string) {
  let seen: Focused | null = null;
  for (let tries = 0; tries < 150; tries += 1) {
    seen = await focused(page);
    if (matches(seen, want)) break;
    await page.waitForTimeout(100);
  }
  assert.ok(matches(seen, want), `${step}: expected ${want.tag} "${String(want.name)}", got ${JSON.stringify(seen)}`);
  assertVisible(seen!, step);
}

/** Presses Tab until `want` has focus, as a keyboard user would, and checks that it shows. */
async function tabTo(page: Page, want: Want, step: string) {
  for (let presses = 0; presses < MAX_TABS; presses += 1) {
    await page.keyboard.press('Tab');
    const seen = await focused(page);
    if (matches(seen, want)) return assertVisible(seen!, step);
  }
  assert.fail(`${step}: ${MAX_TABS} Tab presses never reached ${want.tag} "${String(want.name)}"`);
}

describe('the keyboard alone in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('from the home page through sign-in to a judged flag, focus visible and in place', async () => {
    const app = platform.server.app;
    // A running game, one challenge, and a player whose team already plays in it.
    const admin = client(app, await apiSignIn(app, platform.admin.userName, platform.admin.password));
    const title = `Keys Cup ${uniqueName('g').slice(1, 7)}`;
    const game = await newGame(admin, { title });
    const challenge = await newChallenge(admin, game.id, { flags: [RIGHT_FLAG] });
    const challengeTitle = `Typed ${uniqueName('c').slice(1, 5)}`;
    assertOk(
      'editUpdateGameChallenge',
      await admin('PUT', `/api/edit/games/${game.id}/challenges/${challenge.id}`, { title: challengeTitle }),
    );
    const player = await createUser(app, { userName: uniqueName('keys') });
    const playerApi = client(app, await apiSignIn(app, player.userName, player.password));
    const team = assertOk('teamCreateTeam', await playerApi('POST', '/api/team', { name: uniqueName('t') })) as {
      id: number;
    };
    const joined = await playerApi('POST', `/api/game/${game.id}`, { teamId: team.id });
    assert.equal(joined.statusCode, 200, joined.body);

    const page = await platform.newPage();
    await page.goto('/');
    await page.getByTestId('platform-title').waitFor();

    // The first Tab offers the skip link; then on through the app bar to "Sign in".
    await page.keyboard.press('Tab');
    await expectFocus(page, { tag: 'a', name: 'Skip to main content' }, 'skip link');
    await tabTo(page, { tag: 'a', name: 'Sign in' }, 'app bar sign-in link');
    await platform.screenshot(page, 'keyboard-focus-app-bar');
    await page.keyboard.press('Enter');

    // The new page's heading takes focus; the form follows it.
    await expectFocus(page, { tag: 'h1', name: 'Sign in' }, 'sign-in heading');
    await platform.screenshot(page, 'keyboard-focus-heading');
    await tabTo(page, { tag: 'input', name: 'User name or e-mail' }, 'user name field');
    await page.keyboard.type(player.userName);
    await page.keyboard.press('Tab');
    await expectFocus(page, { tag: 'input', name: 'Password' }, 'password field');
    await platform.screenshot(page, 'keyboard-focus-field');
    await page.keyboard.type(player.password);
    await page.keyboard.press('Enter');

    // Signed in: back home, on its heading, then to the game among the recent ones.
    await expectFocus(page, { tag: 'h1', name: /::CTF$/ }, 'home heading after sign-in');
    await tabTo(page, { tag: 'a', name: new RegExp(title) }, 'recent game link');
    await platform.screenshot(page, 'keyboard-focus-game-card');
    await page.keyboard.press('Enter');

    await expectFocus(page, { tag: 'h1', name: title }, 'game heading');
    await tabTo(page, { tag: 'a', name: 'Challenges' }, 'challenges link');
    await page.keyboard.press('Enter');

    await expectFocus(page, { tag: 'h1', name: title }, 'challenges page heading');
    await tabTo(page, { tag: 'button', name: new RegExp(`^${challengeTitle}`) }, 'challenge card');
    await platform.screenshot(page, 'keyboard-focus-challenge-card');
    await page.keyboard.press('Enter');

    // The dialog opens on the flag field; Enter submits and the verdict comes back.
    await expectFocus(page, { tag: 'input', name: 'Flag' }, 'flag field');
    await page.keyboard.type(RIGHT_FLAG);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: challengeTitle }).getByText('Accepted! The flag is correct.').waitFor();
    await expectFocus(page, { tag: 'input', name: 'Flag' }, 'flag field after the verdict');
    await platform.screenshot(page, 'keyboard-flag-accepted');
    await page.context().close();
  });
});
