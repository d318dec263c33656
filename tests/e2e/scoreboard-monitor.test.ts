import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { assertOk, client, type Client } from '../server/edit/support';
import { newChallenge, newGame } from '../server/game/support';
import { createUser, signIn as apiSignIn, uniqueName, type TestUser } from '../server/helpers/users';
import { ARTIFACTS, startPlatform, type Platform, signInWithApi } from './helpers/platform';

/** A user who created a team through the API and joined the game with it (accepted without review). */
async function joinedPlayer(app: FastifyInstance, gameId: number, teamName: string) {
  const user = await createUser(app, { userName: uniqueName('p') });
  const api = client(app, await apiSignIn(app, user.userName, user.password));
  const team = assertOk('teamCreateTeam', await api('POST', '/api/team', { name: teamName })) as { id: number };
  const joined = await api('POST', `/api/game/${gameId}`, { teamId: team.id });
  assert.equal(joined.statusCode, 200, joined.body);
  return { user, api };
}

/** Submits through the API and waits until the checker has judged the answer. */
async function submitAndWait(api: Client, gameId: number, challengeId: number, flag: string): Promise<string> {
  // The first view of a challenge creates the team's instance, which judging looks up.
  assertOk('gameGetChallenge', await api('GET', `/api/game/${gameId}/challenges/${challengeId}`));
  const id = assertOk('gameSubmit', await api('POST', `/api/game/${gameId}/challenges/${challengeId}`, { flag }));
  for (let attempt = 0; attempt < 100; attempt++) {
    const status = (
      await api('GET', `/api/game/${gameId}/challenges/${challengeId}/status/${String(id)}`)
    ).json<string>();
    if (status !== 'FlagSubmitted') return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the submission was never judged');
}

async function waitUntil(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('scoreboard and monitor pages in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('a player finds the blood on the scoreboard; a monitor filters and exports submissions', async () => {
    const app = platform.server.app;
    const admin = client(app, await apiSignIn(app, platform.admin.userName, platform.admin.password));
    const game = await newGame(admin, { title: `Scoreboard Cup ${uniqueName('g').slice(1, 6)}` });
    const challenge = await newChallenge(admin, game.id, { flags: ['flag{e2e_right}'] });
    const solverTeam = `Solvers ${uniqueName('t').slice(1, 6)}`;
    const missTeam = `Missers ${uniqueName('t').slice(1, 6)}`;
    const solver = await joinedPlayer(app, game.id, solverTeam);
    const misser = await joinedPlayer(app, game.id, missTeam);
    assert.equal(await submitAndWait(solver.api, game.id, challenge.id, 'flag{e2e_right}'), 'Accepted');
    assert.equal(await submitAndWait(misser.api, game.id, challenge.id, 'flag{e2e_wrong}'), 'WrongAnswer');
    await app.scoreboards.idle();

    // The monitor is a plain user the admin promotes through the API.
    const monitor: TestUser = await createUser(app, { userName: uniqueName('mon') });
    const promoted = await admin('PUT', `/api/admin/users/${monitor.id}`, { role: 'Monitor' });
    assert.equal(promoted.statusCode, 200, promoted.body);

    // A player sees the solving team ranked first, with its score and the first-blood mark.
    const player = await platform.newPage();
    await signInWithApi(platform, player, misser.user.userName, misser.user.password);
    await player.goto(`/games/${game.id}/scoreboard`);
    const board = player.getByRole('table', { name: 'Scoreboard' });
    const solverRow = board
      .getByRole('row')
      .filter({ has: player.getByRole('button', { name: `Show details of ${solverTeam}` }) });
    await solverRow.waitFor();
    await solverRow.getByRole('img', { name: `${solverTeam}: first blood on ${challenge.title}` }).waitFor();
    const cells = await solverRow.getByRole('cell').allInnerTexts();
    assert.equal(cells[0], '1', 'the solver ranks first');
    assert.ok(Number(cells[2]) > 0, `the solver has points (${cells[2]})`);
    assert.equal(cells[3], '1', 'one solved challenge');
    const missRow = board
      .getByRole('row')
      .filter({ has: player.getByRole('button', { name: `Show details of ${missTeam}` }) });
    assert.equal((await missRow.getByRole('cell').allInnerTexts())[2], '0');
    // The monitor-only sheet is not offered to a player.
    assert.equal(await player.getByRole('button', { name: 'Download scoreboard sheet' }).count(), 0);
    // The chart is drawn (its own lazily loaded chunk) with a line per team.
    await player.locator('svg.MuiChartsSurface-root path.MuiLineElement-root').first().waitFor({ state: 'attached' });
    await platform.screenshot(player, 'scoreboard-player');
    await board.getByRole('button', { name: `Show details of ${solverTeam}` }).click();
    const detail = player.getByRole('dialog', { name: new RegExp(solverTeam) });
    await detail.getByRole('table', { name: 'Solves' }).getByText(challenge.title).waitFor();
    await platform.screenshot(player, 'scoreboard-team-detail');
    await detail.getByRole('button', { name: 'Close' }).click();

    // A player who opens the monitor pages is told they are for monitors.
    await player.goto(`/games/${game.id}/monitor/cheatinfo`);
    await player.getByText('Only monitors and admins can see this page.').waitFor();
    await player.context().close();

    // The monitor sees both submissions, filters them and exports the sheet.
    const page = await platform.newPage();
    // What the monitor hub pushes to this page (SignalR JSON frames over the WebSocket).
    const hubFrames: string[] = [];
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/hub/monitor')) return;
      socket.on('framereceived', ({ payload }) => hubFrames.push(String(payload)));
    });
    await signInWithApi(platform, page, monitor.userName, monitor.password);
    await page.goto(`/games/${game.id}/monitor/submissions`);
    const submissions = page.getByRole('table', { name: 'Submissions' });
    await submissions.getByText('flag{e2e_right}').waitFor();
    await submissions.getByText('flag{e2e_wrong}').waitFor();
    await platform.screenshot(page, 'monitor-submissions');
    await page.getByRole('button', { name: 'Wrong answer' }).click();
    await submissions.getByText('flag{e2e_right}').waitFor({ state: 'detached' });
    await submissions.getByText('flag{e2e_wrong}').waitFor();
    assert.equal(await submissions.getByRole('row').count(), 2, 'the header and the one wrong answer');
    await platform.screenshot(page, 'monitor-submissions-wrong');
    // The server searches (team, user, challenge, answer) and says how many match.
    await page.getByRole('button', { name: 'All' }).click();
    await submissions.getByText('flag{e2e_right}').waitFor();
    await page.getByText('1–2 of 2').waitFor();
    await page.getByRole('searchbox', { name: 'Search submissions' }).fill(solverTeam);
    await submissions.getByText('flag{e2e_wrong}').waitFor({ state: 'detached' });
    await submissions.getByText('flag{e2e_right}').waitFor();
    await page.getByText('1–1 of 1').waitFor();
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await submissions.getByText('flag{e2e_wrong}').waitFor();

    const [download] = await Promise.all([
      // The export runs in a worker at lowered priority: on a machine busy with the rest of the suite it
      // may take longer than the default 30 s.
      page.waitForEvent('download', { timeout: 120_000 }),
      page.getByRole('button', { name: 'Export submissions sheet' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /_Submissions_\d{14}\.xlsx$/);
    const file = path.join(ARTIFACTS, 'monitor-submissions.xlsx');
    await download.saveAs(file);
    const bytes = fs.readFileSync(file);
    assert.ok(bytes.length > 0);
    assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK', 'an xlsx is a zip');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const texts: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => texts.push(String(cell.text)))));
    assert.ok(texts.includes(solverTeam), 'the sheet names the solving team');
    assert.ok(texts.includes('flag{e2e_wrong}'), 'the sheet has the wrong answer');

    // The events tab shows what happened.
    await page.getByRole('tab', { name: 'Events' }).click();
    const events = page.getByRole('list', { name: 'Game events' });
    await events.getByText(`Submitted a flag for ${challenge.title}`).first().waitFor();
    assert.equal(await events.getByText(`Submitted a flag for ${challenge.title}`).count(), 2);
    await events.getByText(new RegExp(`^${solverTeam} · `)).waitFor();

    // Live: a new answer arrives through the hub and joins the list without a reload.
    const before = hubFrames.length;
    assert.equal(await submitAndWait(misser.api, game.id, challenge.id, 'flag{e2e_again}'), 'WrongAnswer');
    await events.getByText('flag{e2e_again}').waitFor({ timeout: 15_000 });
    await waitUntil(() => hubFrames.slice(before).some((frame) => frame.includes('ReceivedGameEvent')));
    assert.ok(hubFrames.slice(before).some((frame) => frame.includes('flag{e2e_again}')));
    await platform.screenshot(page, 'monitor-events');
    await page.context().close();
  });
});
