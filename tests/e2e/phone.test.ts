import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { client } from '../server/edit/support';
import { asUser, signIn } from '../server/helpers/users';
import { startPlatform, type Platform } from './helpers/platform';
import { PHONE, pageWidthFits, seedBusyGame, signInWithCookie, type BusyGame } from './helpers/phone';

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

describe('phone-width pages (390×844) in Chromium', () => {
  let platform: Platform;
  let game: BusyGame;
  let monitorCookie: string;
  before(async () => {
    platform = await startPlatform();
    const app = platform.server.app;
    const admin = client(app, await signIn(app, platform.admin.userName, platform.admin.password));
    game = await seedBusyGame(app, admin, 35);
    monitorCookie = (await asUser(app, 'Monitor')).cookie;
  });
  after(async () => platform.close());

  test('issue 18: a player pages the scoreboard past rank 30 and reads a team’s solves', async () => {
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

  test('issue 18: a monitor reads every column of submissions, cheat records and events', async () => {
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
});
