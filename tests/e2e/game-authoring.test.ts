import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { decodeBloodBonus } from '../../src/shared/lib/bloodBonus';
import { createUser, signIn as signInByApi, uniqueName } from '../server/helpers/users';
import { authorStaticAttachmentChallenge } from './helpers/challengeAuthoring';
import { startPlatform, type Platform, signInWithApi } from './helpers/platform';

const TIMEOUT = 20_000;

/** An 8×8 opaque PNG, small enough to inline: the poster the test uploads. */
const POSTER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM4EaCBFTEMLQkAaplQAc/OcKAAAAAASUVORK5CYII=',
  'base64',
);

const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Game sections' }).getByRole('tab', { name, exact: true });

interface StoredGame {
  title: string;
  divisions: string[] | null;
  bloodBonus: number;
  start: number;
  end: number;
}

describe('game authoring in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('an admin creates a game with two divisions, a notice and an enabled challenge, then accepts a team', async () => {
    const app = platform.server.app;
    const page = await platform.newPage();
    page.setDefaultTimeout(TIMEOUT);
    page.on('response', (response) => {
      if (response.url().includes('/api/') && response.status() >= 400) {
        process.stderr.write(`${response.request().method()} ${response.url()} -> ${response.status()}\n`);
      }
    });
    page.on('console', (message) => {
      if (message.type() === 'error') process.stderr.write(`console: ${message.text()}\n`);
    });
    await signInWithApi(platform, page, platform.admin.userName, platform.admin.password);

    // The games list, and a new game from its dialog (times keep their defaults: the next full hour, two days).
    await page.goto('/admin/games');
    await page.getByRole('grid', { name: 'Games' }).waitFor();
    await page.getByRole('button', { name: 'New game' }).click();
    const create = page.getByRole('dialog', { name: 'Create a game' });
    await create.getByRole('textbox', { name: 'Title' }).fill('Autumn Cup');
    await platform.screenshot(page, 'game-create-dialog');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/admin\/games\/\d+\/info$/);
    const gameId = Number(/\/games\/(\d+)\/info$/.exec(new URL(page.url()).pathname)?.[1]);
    assert.ok(Number.isInteger(gameId) && gameId > 0, `a game id in ${page.url()}`);
    await page.getByRole('heading', { name: 'Autumn Cup', level: 2 }).waitFor();

    // Info: two divisions, a summary, and a blood bonus that is first refused, then fixed.
    const divisions = page.getByRole('combobox', { name: 'Divisions' });
    await divisions.fill('Students');
    await divisions.press('Enter');
    await divisions.fill('Open');
    await divisions.press('Enter');
    await page.getByRole('button', { name: 'Students' }).waitFor();
    await page.getByRole('textbox', { name: 'Summary' }).fill('A friendly autumn contest');
    await page.getByRole('textbox', { name: 'Description (markdown)' }).fill('# Welcome\n\nHave **fun**');
    await page.getByTestId('game-content-preview').locator('strong', { hasText: 'fun' }).waitFor();
    const first = page.getByRole('textbox', { name: 'First blood' });
    await first.fill('2000');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('A whole number from 0 to 1000.').waitFor();
    await platform.screenshot(page, 'game-info-invalid');
    await first.fill('100');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Game saved').waitFor();
    // The poster is saved on its own, at once.
    await page
      .getByTestId('poster-file')
      .setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: POSTER_PNG });
    await page.getByRole('img', { name: 'Poster of Autumn Cup' }).waitFor();
    await platform.screenshot(page, 'game-info-saved');

    const stored = (await (await page.request.get(`/api/edit/games/${gameId}`)).json()) as StoredGame;
    assert.deepEqual(stored.divisions, ['Students', 'Open']);
    assert.deepEqual(decodeBloodBonus(stored.bloodBonus), { first: 100, second: 30, third: 10 });
    assert.ok(stored.end - stored.start === 48 * 3_600_000, 'the dialog’s default times were kept');
    assert.match(String((stored as { poster?: string }).poster), /^\/assets\/[0-9a-f]+\/poster$/);

    // Scoreboard freeze (beyond GZCTF): saved on its own, a day into the game, then lifted again.
    const freeze = page.getByRole('region', { name: 'Scoreboard freeze' });
    const freezeDate = new Date(stored.start + 24 * 3_600_000);
    freezeDate.setSeconds(0, 0);
    const pad = (value: number) => String(value).padStart(2, '0');
    await freeze
      .getByLabel('Freeze the scoreboard at')
      .fill(
        `${freezeDate.getFullYear()}-${pad(freezeDate.getMonth() + 1)}-${pad(freezeDate.getDate())}` +
          `T${pad(freezeDate.getHours())}:${pad(freezeDate.getMinutes())}`,
      );
    await freeze.getByRole('button', { name: 'Freeze', exact: true }).click();
    await page.getByText('Scoreboard frozen').waitFor();
    await freeze.getByText(/^Players see the standings as of \d/).waitFor();
    await platform.screenshot(page, 'game-info-freeze');
    const frozen = (await (await page.request.get(`/api/game/${gameId}/freeze`)).json()) as { freezeAt: number };
    assert.equal(frozen.freezeAt, freezeDate.getTime());
    await freeze.getByRole('button', { name: 'Lift the freeze' }).click();
    await freeze.getByText('The scoreboard is live for everyone.').waitFor();
    assert.deepEqual(await (await page.request.get(`/api/game/${gameId}/freeze`)).json(), { freezeAt: null });

    // Notices: publish one; it shows in the list.
    await section(page, 'Notices').click();
    await page.waitForURL(/\/notices$/);
    await page.getByRole('textbox', { name: 'New notice (markdown)' }).fill('Doors open at **noon**');
    await page.getByRole('button', { name: 'Publish' }).click();
    const notices = page.getByRole('list', { name: 'Notices' });
    await notices.locator('strong', { hasText: 'noon' }).waitFor();
    await notices.getByRole('button', { name: /^Edit notice/ }).waitFor();
    await platform.screenshot(page, 'game-notices');
    const storedNotices = (await (await page.request.get(`/api/edit/games/${gameId}/notices`)).json()) as Array<{
      type: string;
      values: string[];
    }>;
    assert.deepEqual(
      storedNotices.map((notice) => [notice.type, notice.values[0]]),
      [['Normal', 'Doors open at **noon**']],
    );

    // A static-attachment challenge with an uploaded file and a flag, enabled (the challenge pages).
    const { challengeId } = await authorStaticAttachmentChallenge(page, {
      gameId,
      title: 'Warmup Crypto',
      flag: 'flag{autumn_warmup}',
      fileName: 'cipher.txt',
      fileContent: 'uryyb jbeyq',
    });
    const challenge = (await (
      await page.request.get(`/api/edit/games/${gameId}/challenges/${challengeId}`)
    ).json()) as {
      isEnabled: boolean;
      flags: unknown[];
      attachment: { type: string } | null;
    };
    assert.equal(challenge.isEnabled, true);
    assert.equal(challenge.flags.length, 1);
    assert.equal(challenge.attachment?.type, 'Local');
    await platform.screenshot(page, 'game-challenge-enabled');

    // A player's team joins in the Students division: a Pending participation.
    const player = await createUser(app, { userName: uniqueName('play') });
    const cookie = await signInByApi(app, player.userName, player.password);
    const teamName = `Owls ${uniqueName('t').slice(0, 6)}`;
    const team = await app.inject({
      method: 'POST',
      url: '/api/team',
      headers: { cookie },
      payload: { name: teamName },
    });
    assert.equal(team.statusCode, 200, team.body);
    const teamId = (team.json() as { id: number }).id;
    const join = await app.inject({
      method: 'POST',
      url: `/api/game/${gameId}`,
      headers: { cookie },
      payload: { teamId, division: 'Students' },
    });
    assert.equal(join.statusCode, 200, join.body);

    // Review: the team is pending; accepting it moves it to Accepted, on the page and on the server.
    await section(page, 'Review').click();
    await page.waitForURL(/\/review$/);
    const card = page.getByRole('listitem', { name: teamName });
    await card.getByText('Pending', { exact: true }).waitFor();
    await card.getByRole('button', { name: `Members of ${teamName}` }).click();
    await card.getByText(player.userName, { exact: true }).waitFor();
    await page.waitForTimeout(400); // let the members list and the chip colours finish their transitions
    await platform.screenshot(page, 'game-review-pending');
    assert.equal(
      await card.getByRole('button', { name: `Suspend ${teamName}` }).count(),
      0,
      'no suspend while pending',
    );
    await card.getByRole('button', { name: `Accept ${teamName}` }).click();
    await card.getByText('Accepted', { exact: true }).waitFor();
    await card.getByRole('button', { name: `Suspend ${teamName}` }).waitFor();
    await page.waitForTimeout(400);
    await platform.screenshot(page, 'game-review-accepted');

    const participations = (await (await page.request.get(`/api/game/${gameId}/participations`)).json()) as Array<{
      team: { id: number };
      status: string;
      division: string | null;
    }>;
    const mine = participations.find((item) => item.team.id === teamId);
    assert.equal(mine?.status, 'Accepted');
    assert.equal(mine?.division, 'Students');

    // Back on the list, the game is there with its sections.
    await page.getByRole('link', { name: 'All games' }).click();
    await page.getByRole('grid', { name: 'Games' }).getByRole('link', { name: 'Autumn Cup' }).waitFor();
    await platform.screenshot(page, 'game-list');
    await page.context().close();
  });
});
