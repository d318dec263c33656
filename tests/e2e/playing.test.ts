import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertOk, client, uploadAsset } from '../server/edit/support';
import { newChallenge, newGame } from '../server/game/support';
import { createUser, signIn as apiSignIn, uniqueName } from '../server/helpers/users';
import { dismissNotifications } from './helpers/notifications';
import { startPlatform, type Platform, signInWithApi } from './helpers/platform';

const RIGHT_FLAG = 'flag{e2e_playing_right}';
const ATTACHMENT = 'The secret is in the file.\n'.repeat(100);

describe('playing a game in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('a player joins, submits a wrong then the right flag, and sees the blood live', async () => {
    const app = platform.server.app;

    // The admin sets up a running game (accepting without review) with one static challenge.
    const adminCookie = await apiSignIn(app, platform.admin.userName, platform.admin.password);
    const admin = client(app, adminCookie);
    const title = `Play Cup ${uniqueName('g').slice(1, 7)}`;
    const game = await newGame(admin, {
      title,
      summary: 'A short game for the browser test',
      content: 'Welcome! Read **the rules** before you start.',
    });
    const challengeTitle = `Warmup ${uniqueName('c').slice(1, 5)}`;
    const challenge = await newChallenge(admin, game.id, { flags: [RIGHT_FLAG] });
    const hash = await uploadAsset(app, adminCookie, ATTACHMENT, 'warmup.txt');
    const attached = await admin('POST', `/api/edit/games/${game.id}/challenges/${challenge.id}/attachment`, {
      attachmentType: 'Local',
      fileHash: hash,
    });
    assert.equal(attached.statusCode, 200, attached.body);
    const edited = await admin('PUT', `/api/edit/games/${game.id}/challenges/${challenge.id}`, {
      title: challengeTitle,
      content: 'Find the flag in the **attachment**.',
      hints: ['Read it to the end'],
    });
    assert.equal(edited.statusCode, 200, edited.body);

    // A player with a team, made through the API.
    const player = await createUser(app, { userName: uniqueName('play') });
    const playerApi = client(app, await apiSignIn(app, player.userName, player.password));
    const teamName = `Red ${uniqueName('t').slice(1, 6)}`;
    assertOk('teamCreateTeam', await playerApi('POST', '/api/team', { name: teamName }));

    const page = await platform.newPage();
    // Record what the user hub pushes, to tell a live notice from a polled one.
    const pushed: string[] = [];
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/hub/user')) return;
      socket.on('framereceived', ({ payload }) => pushed.push(String(payload)));
    });
    await signInWithApi(platform, page, player.userName, player.password);

    // Home: the recent games list links to the game.
    await page.goto('/');
    await page.getByRole('region', { name: 'Recent games' }).getByRole('link', { name: title }).waitFor();
    await platform.screenshot(page, 'playing-home-recent-games');

    // The games list, then the game.
    await page.goto('/games');
    const card = page.getByRole('article', { name: title });
    await card.waitFor();
    await card.getByText('Running').waitFor();
    await platform.screenshot(page, 'playing-games-list');
    await card.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText('the rules').waitFor();
    await page.getByRole('progressbar', { name: /of the game time has passed/ }).waitFor();

    // Join with the team (the only one, so already chosen).
    await page.getByRole('button', { name: 'Join the game' }).click();
    const join = page.getByRole('dialog', { name: `Join ${title}` });
    await join.getByRole('combobox', { name: /Team/ }).filter({ hasText: teamName }).waitFor();
    await platform.screenshot(page, 'playing-join-dialog');
    await join.getByRole('button', { name: 'Join' }).click();
    await join.waitFor({ state: 'detached' });
    await page.getByText(`You play in this game with ${teamName}.`).waitFor();
    await platform.screenshot(page, 'playing-game-joined');

    // The challenges.
    await page.getByRole('link', { name: 'Challenges' }).click();
    const cardButton = page.getByRole('button', { name: new RegExp(`^${challengeTitle} `) });
    await cardButton.waitFor();
    const rankCard = page.getByRole('region', { name: teamName });
    await rankCard.getByText('Solved 0 of 1', { exact: true }).first().waitFor();
    await platform.screenshot(page, 'playing-challenges');

    await cardButton.click();
    const dialog = page.getByRole('dialog', { name: challengeTitle });
    await dialog.getByText('attachment', { exact: true }).waitFor();
    await dialog.getByText('Read it to the end').waitFor();
    await dialog.getByRole('link', { name: 'Download the attachment' }).waitFor();
    await dialog.getByText('(2.64 KiB)').waitFor();
    const flag = dialog.getByRole('textbox', { name: 'Flag' });
    await flag.fill('flag{not_this_one}');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Wrong answer. Try again.').waitFor();
    await platform.screenshot(page, 'playing-wrong-flag');

    await flag.fill(RIGHT_FLAG);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Accepted! The flag is correct.').waitFor();
    await platform.screenshot(page, 'playing-accepted');
    // The first blood is announced as a notification too (bottom-right, where it may cover the
    // button): once it is there, it is closed, so none arrives between closing and clicking.
    await page.locator('.ctf-notifications').getByText(`${teamName} took first blood on ${challengeTitle}`).waitFor();
    await dismissNotifications(page);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The first-blood notice arrives through the hub, with no reload.
    const notices = page.getByRole('region', { name: 'Notices' });
    await notices.getByText(`${teamName} took first blood on ${challengeTitle}`).waitFor();
    assert.ok(
      pushed.some((frame) => frame.includes('ReceivedGameNotice') && frame.includes('FirstBlood')),
      'the blood notice was pushed on /hub/user',
    );

    // The card is solved, and the rank card shows the team's place and score from the board.
    await page.getByRole('button', { name: new RegExp(`^${challengeTitle} Solved `) }).waitFor();
    await app.scoreboards.idle();
    const board = assertOk('gameScoreboard', await playerApi('GET', `/api/game/${game.id}/scoreboard`)) as {
      items: Array<{ name: string; score: number; rank: number }>;
    };
    const row = board.items.find((item) => item.name === teamName);
    assert.ok(row && row.score > 0, 'the team is on the board with points');
    await rankCard.getByText(`#${row.rank}`).waitFor();
    await rankCard.getByText(String(row.score), { exact: true }).waitFor();
    await rankCard.getByText('Solved 1 of 1', { exact: true }).first().waitFor();
    await platform.screenshot(page, 'playing-blood-notice-rank');

    // Opened again, the solved challenge says so and takes no more flags.
    await page.getByRole('button', { name: new RegExp(`^${challengeTitle} Solved `) }).click();
    await dialog.getByText('Your team has solved this challenge.').waitFor();
    assert.equal(await dialog.getByRole('textbox', { name: 'Flag' }).getAttribute('readonly'), '');
    assert.ok(await dialog.getByRole('button', { name: 'Submit' }).isDisabled(), 'no submit once solved');
    await platform.screenshot(page, 'playing-solved-again');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Narrow screens stack the board above the side panels.
    await page.setViewportSize({ width: 390, height: 800 });
    await platform.screenshot(page, 'playing-challenges-narrow');
    await page.context().close();
    // The game pages, the hub's WebSocket and the notifications all stayed within the page's policy.
    assert.deepEqual(platform.cspViolations, []);
  });
});
