import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { client } from '../server/edit/support';
import { asUser, signIn } from '../server/helpers/users';
import { signInWithCookie, startPlatform, type Platform } from './helpers/platform';
import { settled, trackRequests, visit } from './helpers/navigation';
import { DESKTOP, PHONE, pageWidthFits, seedBusyGame, type BusyGame } from './helpers/phone';

/** The element lies within the window's width: seen without scrolling sideways. */
async function assertOnScreen(page: Page, locator: Locator, what: string) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  assert.ok(box, `${what} is rendered`);
  const { innerWidth } = await pageWidthFits(page);
  assert.ok(
    box.x >= 0 && box.x + box.width <= innerWidth,
    `${what} is on screen (${box.x}+${box.width} of ${innerWidth})`,
  );
}

async function assertNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await pageWidthFits(page);
  assert.ok(scrollWidth <= innerWidth, `${where}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
}

/** Every label and value of every card of a phone-width record list is on screen. */
async function assertCardsShowEveryColumn(page: Page, list: Locator, labels: string[], what: string) {
  const cards = list.getByRole('listitem');
  assert.ok((await cards.count()) > 0, `${what} has rows`);
  const first = cards.first();
  for (const label of labels) {
    const term = first.locator('dt', { hasText: label });
    await assertOnScreen(page, term, `${what}: the ${label} label`);
    const value = first.locator(`dt:text-is("${label}") + dd`);
    assert.notEqual((await value.innerText()).trim(), '', `${what}: a ${label} value`);
    await assertOnScreen(page, value, `${what}: the ${label} value`);
  }
  await assertNoSidewaysScroll(page, what);
}

/** Where the run leaves its screenshots for a reviewer (ignored by git). */
const SCREENSHOTS = path.resolve(__dirname, '../../test-results/screenshots');

describe('phone-width pages (390×844) and screenshots of the main pages in Chromium', () => {
  let platform: Platform;
  let game: BusyGame;
  let monitorCookie: string;
  let adminCookie: string;
  // One server and one seeded game serve every test here: seeding is the slow part.
  before(async () => {
    platform = await startPlatform();
    const app = platform.server.app;
    adminCookie = await signIn(app, platform.admin.userName, platform.admin.password);
    game = await seedBusyGame(app, client(app, adminCookie), 35);
    monitorCookie = (await asUser(app, 'Monitor')).cookie;
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await platform.close();
    process.stdout.write(`# screenshots: ${SCREENSHOTS}\n`);
  });

  test('a player pages the scoreboard past rank 30 and reads a team’s solves', async () => {
    const page = await platform.newPage({ viewport: PHONE });
    await signInWithCookie(page, platform.url, game.players[5]!.cookie);
    await page.goto(`/games/${game.gameId}/scoreboard`);
    const board = page.getByRole('table', { name: 'Scoreboard' });
    await board.getByRole('row').nth(2).waitFor();
    // The key columns stand beside the sticky rank and team on the first screen.
    await assertOnScreen(page, board.getByRole('columnheader', { name: 'Score' }), 'the Score header');
    await assertOnScreen(page, board.getByRole('columnheader', { name: 'Solved' }), 'the Solved header');
    await page.getByText('1–30 of 35').waitFor();
    const next = page.getByRole('button', { name: 'Next page' });
    await assertOnScreen(page, next, 'the next-page button');
    await assertNoSidewaysScroll(page, 'scoreboard');
    await next.click();
    await page.getByText('31–35 of 35').waitFor();
    const rank31 = board.getByRole('row').filter({ has: page.getByRole('cell', { name: '31', exact: true }) });
    await rank31.waitFor();
    await assertOnScreen(page, rank31.getByRole('cell').first(), 'rank 31');

    // The team's detail fills the screen and shows each solve's points and time.
    await rank31.getByRole('button', { name: /^Show details of / }).click();
    const dialog = page.getByRole('dialog');
    const solves = dialog.getByRole('list', { name: 'Solves' });
    await solves.waitFor();
    await assertCardsShowEveryColumn(page, solves, ['Challenge', 'Points', 'Time'], 'the team’s solves');
    await page.context().close();
  });

  test('a monitor reads every column of submissions, cheat records and events', async () => {
    const page = await platform.newPage({ viewport: PHONE });
    await signInWithCookie(page, platform.url, monitorCookie);
    await page.goto(`/games/${game.gameId}/monitor/submissions`);
    const submissions = page.getByRole('list', { name: 'Submissions' });
    await submissions.getByRole('listitem').first().waitFor();
    await assertCardsShowEveryColumn(
      page,
      submissions,
      ['Time', 'Status', 'Team', 'User', 'Challenge', 'Answer'],
      'submissions',
    );
    await assertOnScreen(page, page.getByRole('button', { name: 'Next page' }), 'the submissions pager');

    await page.getByRole('tab', { name: 'Cheat info' }).click();
    const cheats = page.getByRole('list', { name: 'Cheat records' });
    await cheats.getByRole('listitem').first().waitFor();
    await assertCardsShowEveryColumn(
      page,
      cheats,
      ['Time', 'Submitting team', 'User', 'Flag owner team', 'Challenge', 'Answer'],
      'cheat records',
    );
    await cheats.getByText(game.cheater.team.name).waitFor();

    await page.getByRole('tab', { name: 'Events' }).click();
    const events = page.getByRole('list', { name: 'Game events' });
    const event = events.getByRole('listitem').filter({ hasText: game.players[34]!.team.name }).first();
    await event.waitFor();
    // An event's what, who and when: the text, then "team · user · time".
    await assertOnScreen(page, event.getByText(`Submitted a flag for ${game.staticTitle}`), 'the event text');
    await assertOnScreen(page, event.getByText(new RegExp(`^${game.players[34]!.team.name} · `)), 'the event’s team');
    await assertNoSidewaysScroll(page, 'events');
    await page.context().close();
  });

  test('each page shows its heading and fits the window', async () => {
    const pages = [
      { name: 'home', path: '/', player: false },
      { name: 'games', path: '/games', player: false },
      { name: 'game', path: `/games/${game.gameId}`, player: true },
      { name: 'challenges', path: `/games/${game.gameId}/challenges`, player: true },
      { name: 'scoreboard', path: `/games/${game.gameId}/scoreboard`, player: true },
      { name: 'monitor-submissions', path: `/games/${game.gameId}/monitor/submissions`, player: false },
      { name: 'admin-users', path: '/admin/users', player: false },
      { name: 'admin-games', path: '/admin/games', player: false },
    ];
    // One loaded app per user, moved between routes as a link would: loading the bundle afresh for
    // each of the 32 pictures cost most of this file's CPU, and a route renders the same either way.
    for (const player of [false, true]) {
      const page = await platform.newPage({ viewport: DESKTOP });
      const pending = trackRequests(page);
      await signInWithCookie(page, platform.url, player ? game.players[0]!.cookie : adminCookie);
      await visit(page, '/');
      // Dark is the default: the toggle offers light on a first visit.
      await page.getByRole('button', { name: 'Switch to the light colour scheme' }).waitFor();
      for (const [width, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
        await page.setViewportSize(viewport);
        for (const scheme of ['dark', 'light'] as const) {
          await chooseScheme(page, scheme);
          for (const target of pages.filter((item) => item.player === player)) {
            const where = `${target.name} (${width}, ${scheme})`;
            await visit(page, target.path);
            // Lists and charts arrive after the heading; the picture should show them.
            await settled(page, pending);
            const heading = page.getByRole('main').getByRole('heading').first();
            await heading.waitFor();
            assert.ok(await heading.isVisible(), `${where}: a heading is visible`);
            // A lazily loaded part (a grid, the chart) shows a spinner until its chunk and data arrive;
            // a progress bar with a value (the game's elapsed time) is content, not a wait.
            await page
              .locator('[role="progressbar"]:not([aria-valuenow])')
              .first()
              .waitFor({ state: 'hidden', timeout: 60_000 });
            await assertNoSidewaysScroll(page, where);
            await page.screenshot({
              path: path.join(SCREENSHOTS, `${target.name}-${width}-${scheme}.png`),
              fullPage: true,
            });
          }
        }
      }
      await page.context().close();
    }
  });
});

/** Switches to the colour scheme with the app bar's toggle (if not on already), and checks the page took it. */
async function chooseScheme(page: Page, scheme: 'dark' | 'light') {
  const other = scheme === 'light' ? 'dark' : 'light';
  const toScheme = page.getByRole('button', { name: `Switch to the ${scheme} colour scheme` });
  const toOther = page.getByRole('button', { name: `Switch to the ${other} colour scheme` });
  await toScheme.or(toOther).waitFor();
  if (await toScheme.isVisible()) await toScheme.click();
  await toOther.waitFor();
  const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
  const [red = 0] = String(background).match(/\d+/g)?.map(Number) ?? [];
  assert.equal(red > 128, scheme === 'light', `the ${scheme} scheme is on (body ${String(background)})`);
}
