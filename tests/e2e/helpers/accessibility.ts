import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations, type Violation } from './axe';
import { settled, trackRequests, visit } from './navigation';
import { ARTIFACTS, signInWithApi, startPlatform, type Platform } from './platform';
import { seedShowcase, type Showcase } from './showcase';

/*
 * The accessibility pass over every route (axe-core, WCAG 2.1 A and AA, dark theme), shared by the
 * two files that split it (about a minute each, so the two browser lanes of the end-to-end stage end
 * together instead of one waiting on a 107 s file).
 */

/** The two widths every page is checked at: a laptop and a phone. */
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

interface Stop {
  path: string;
  /** What to do once the page is there, before checking again: open a dialog, a menu... */
  then?: { name: string; act: (page: Page) => Promise<void> };
}

/** Every route of src/app/router.tsx, as the role that sees its real content. */
function routes(s: Showcase) {
  const game = `/games/${s.gameId}`;
  const edit = `/admin/games/${s.gameId}`;
  const [described] = s.challengeIds;
  const signedOut: Stop[] = [
    { path: '/' },
    { path: '/about' },
    { path: '/posts' },
    { path: `/posts/${s.postId}` },
    { path: '/games' },
    { path: game },
    { path: `${game}/scoreboard` },
    { path: `${game}/challenges` },
    { path: '/teams' },
    { path: '/account/login' },
    { path: '/account/register' },
    { path: '/account/recovery' },
    { path: '/account/reset?token=abc&email=a%40example.com' },
    { path: '/account/verify?token=abc&email=a%40example.com' },
    { path: '/account/confirm?token=abc&email=a%40example.com' },
    { path: '/no/such/page' },
  ];
  const player: Stop[] = [
    { path: '/' },
    { path: '/games' },
    { path: game },
    {
      path: `${game}/challenges`,
      then: {
        name: 'challenge dialog',
        act: async (page) => {
          await page.getByRole('button', { name: /^Login Maze/ }).click();
          await page.getByRole('dialog', { name: 'Login Maze' }).getByRole('textbox', { name: 'Flag' }).waitFor();
        },
      },
    },
    {
      path: `${game}/scoreboard`,
      then: {
        name: 'team dialog',
        act: async (page) => {
          await page
            .getByRole('button', { name: /^Show details of / })
            .first()
            .click();
          await page.getByRole('dialog').getByRole('table', { name: 'Solves' }).waitFor();
        },
      },
    },
    { path: '/teams' },
    { path: '/account/profile' },
    { path: `${game}/monitor/events` },
  ];
  const monitor: Stop[] = [
    { path: `${game}/monitor/events` },
    { path: `${game}/monitor/submissions` },
    { path: `${game}/monitor/cheatinfo` },
    { path: `${game}/monitor/traffic` },
    { path: `${game}/scoreboard` },
  ];
  const admin: Stop[] = [
    { path: '/admin/games' },
    { path: `${edit}/info` },
    { path: `${edit}/notices` },
    { path: `${edit}/review` },
    { path: `${edit}/writeups` },
    { path: `${edit}/challenges` },
    { path: `${edit}/challenges/${described}` },
    { path: `${edit}/challenges/${described}/flags` },
    { path: '/admin/users' },
    { path: '/admin/teams' },
    { path: '/admin/instances' },
    { path: '/admin/logs' },
    { path: '/admin/files' },
    { path: '/admin/settings' },
    { path: `/posts/${s.postId}/edit` },
    { path: '/posts/new/edit' },
    { path: `${game}/challenges` },
  ];
  return { signedOut, player, monitor, admin };
}

/** Checks one page at both widths, then (when the stop says so) the dialog it opens, at both widths. */
async function checkStop(page: Page, pending: () => number, stop: Stop): Promise<Violation[]> {
  const found: Violation[] = [];
  const atBothWidths = async (label: string) => {
    for (const [index, size] of WIDTHS.entries()) {
      await page.setViewportSize(size);
      // The first width follows a navigation or a click, which may fetch; a new width only re-renders.
      await settled(page, pending, index === 0);
      found.push(...(await axeViolations(page, label)));
    }
  };
  await page.setViewportSize(WIDTHS[0]);
  await visit(page, stop.path);
  await page.locator('main').waitFor();
  await atBothWidths(stop.path);
  if (stop.then) {
    // The dialog opens at the first width too: on a phone its tables are cards.
    await page.setViewportSize(WIDTHS[0]);
    await stop.then.act(page);
    await atBothWidths(`${stop.path} (${stop.then.name})`);
    await page.keyboard.press('Escape');
  }
  return found;
}

type Role = 'signedOut' | 'player' | 'monitor' | 'admin';

/** One file's part of the pass: a suite with a test per role, each visiting that role's stops. */
export function accessibilitySuite(title: string, artifact: string, parts: Array<{ name: string; role: Role }>): void {
  describe(title, () => {
    let platform: Platform;
    let showcase: Showcase;
    const all: Violation[] = [];
    before(async () => {
      platform = await startPlatform();
      showcase = await seedShowcase(platform.server.app, platform.admin);
    });
    after(async () => {
      fs.writeFileSync(path.join(ARTIFACTS, artifact), JSON.stringify(all, null, 2));
      await platform.close();
    });

    /** Visits every stop as one user (one page for all of them) and fails with the list of what axe found. */
    async function checkAs(account: { userName: string; password: string } | null, stops: Stop[]) {
      const page = await platform.newPage();
      const pending = trackRequests(page);
      // Signed in through the API: the sign-in page itself is checked signed out, and this is faster.
      if (account) await signInWithApi(platform, page, account.userName, account.password);
      const found: Violation[] = [];
      for (const stop of stops) found.push(...(await checkStop(page, pending, stop)));
      await page.context().close();
      all.push(...found);
      assert.equal(found.length, 0, `serious or critical axe violations:\n${describeViolations(found)}`);
    }

    const accounts = {
      signedOut: () => null,
      player: () => showcase.player,
      monitor: () => showcase.monitor,
      admin: () => platform.admin,
    };
    for (const { name, role } of parts) test(name, () => checkAs(accounts[role](), routes(showcase)[role]));
  });
}
