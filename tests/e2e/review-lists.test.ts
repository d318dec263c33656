import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { games } from '../../server/src/db/schema';
import { generateGameKeys } from '../../server/src/lib/game-keys';
import { startPlatform, type Platform, signInWithApi } from './helpers/platform';

const TEAMS = 120;
const SUBMISSIONS = 3000;

describe('the review page of a big game in Chromium', () => {
  let platform: Platform;
  let gameId: number;
  let page: Page;
  /** Every list request the page made, by query string. */
  const listRequests: string[] = [];

  before(async () => {
    platform = await startPlatform();
    const db = platform.server.app.db;
    const now = Date.now();
    const [game] = await db
      .insert(games)
      .values({
        title: 'Big review',
        ...generateGameKeys(undefined),
        startAt: new Date(now - 3_600_000),
        endAt: new Date(now + 3_600_000),
        divisions: ['Open', 'Student'],
      })
      .returning();
    gameId = game!.id;
    // Seeded in bulk: teams "Team 001".."Team 120", every third one pending, the rest accepted.
    await db.execute(sql`insert into users (user_name, email, password_hash)
      select 'rv' || g, 'rv' || g || '@example.com', 'x' from generate_series(1, ${TEAMS}) g`);
    await db.execute(sql`insert into teams (name, invite_token, captain_id)
      select 'Team ' || lpad(substr(u.user_name, 3), 3, '0'), md5(u.user_name), u.id from users u where u.user_name like 'rv%'`);
    await db.execute(
      sql`insert into team_members (team_id, user_id) select id, captain_id from teams where name like 'Team %'`,
    );
    await db.execute(sql`insert into participations (game_id, team_id, status, token, division)
      select ${gameId}, t.id, case when substr(t.name, 6)::int % 3 = 0 then 'Pending' else 'Accepted' end::participation_status,
             t.id || ':x', 'Open'
      from teams t where t.name like 'Team %'`);
    await db.execute(sql`insert into challenges (game_id, title, is_enabled) values (${gameId}, 'Only', true)`);
    await db.execute(sql`insert into submissions (answer, status, team_id, participation_id, game_id, challenge_id)
      select 'wrong ' || g, 'WrongAnswer', p.team_id, p.id, ${gameId}, c.id
      from generate_series(1, ${SUBMISSIONS}) g
      join lateral (select id, team_id from participations where game_id = ${gameId} order by id offset g % ${TEAMS} limit 1) p on true
      cross join (select id from challenges where game_id = ${gameId}) c`);

    page = await platform.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/game/${gameId}/participations`) listRequests.push(url.search);
    });
    await signInWithApi(platform, page, platform.admin.userName, platform.admin.password);
    await page.goto(`/admin/games/${gameId}/review`);
  });
  after(async () => platform.close());

  const cards = () => page.getByRole('list', { name: 'Participations' }).getByRole('listitem');

  test('shows one page of teams from the server and pages through them', async () => {
    await page
      .getByRole('status')
      .filter({ hasText: `Teams: ${TEAMS}` })
      .waitFor();
    await cards().first().waitFor();
    assert.equal(await cards().count(), 50);
    assert.equal(await cards().first().getAttribute('aria-label'), 'Team 001');
    assert.match(listRequests[0]!, /count=50/);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByRole('listitem', { name: 'Team 051', exact: true }).waitFor();
    assert.equal(await cards().count(), 50);
    assert.match(listRequests.at(-1)!, /skip=50/);
    await platform.screenshot(page, 'review-paged');
  });

  test('searches team names on the server once typing pauses, combined with the status filter', async () => {
    const before = listRequests.length;
    await page.getByRole('searchbox', { name: 'Search teams' }).pressSequentially('Team 10', { delay: 30 });
    await page.getByRole('status').filter({ hasText: 'Teams: 10' }).waitFor();
    const searches = listRequests.slice(before);
    assert.equal(searches.length, 1, `one request for the whole word, not one per key: ${searches.join(' ')}`);
    assert.match(searches[0]!, /search=Team\+10/);
    assert.match(searches[0]!, /skip=0/, 'a new search starts from the first page');
    await page.getByRole('button', { name: 'Pending', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Teams: 3' }).waitFor();
    const names = await cards().evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    assert.deepEqual(names, ['Team 102', 'Team 105', 'Team 108']);
  });

  test('accepting a team updates its row only, without reloading the list', async () => {
    const before = listRequests.length;
    const row = page.getByRole('listitem', { name: 'Team 105', exact: true });
    await row.getByRole('button', { name: 'Accept Team 105' }).click();
    await row.getByRole('button', { name: 'Suspend Team 105' }).waitFor();
    await row.getByText('Accepted', { exact: true }).waitFor();
    // The neighbours are untouched and still pending; the list was not asked for again.
    await page
      .getByRole('listitem', { name: 'Team 102', exact: true })
      .getByRole('button', { name: 'Accept Team 102' })
      .waitFor();
    assert.equal(listRequests.length, before);
    const stored = await page.request.get(`/api/game/${gameId}/participations?search=Team%20105`);
    assert.equal(((await stored.json()) as Array<{ status: string }>)[0]!.status, 'Accepted');
  });

  test('the submissions sheet downloads with its progress shown', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Submissions sheet' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Downloading… .* received$/ })
      .waitFor();
    await page.getByRole('progressbar', { name: /^Downloading…/ }).waitFor();
    const file = await (await download).path();
    assert.match((await download).suggestedFilename(), /^Big review_Submissions_\d{14}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync(file) as unknown as ArrayBuffer);
    assert.equal(book.worksheets[0]!.rowCount, SUBMISSIONS + 1);
    await page.getByRole('button', { name: 'Submissions sheet' }).and(page.locator(':enabled')).waitFor();
    assert.equal(
      await page
        .getByRole('status')
        .filter({ hasText: /^Downloading…/ })
        .count(),
      0,
    );
  });
});
