import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { authorStaticAttachmentChallenge } from './helpers/challengeAuthoring';
import { startPlatform, type Platform } from './helpers/platform';

const HOUR = 3_600_000;

async function signIn(platform: Platform, page: Page) {
  await page.goto('/account/login?from=%2Fadmin');
  await page.getByRole('textbox', { name: 'User name or e-mail' }).fill(platform.admin.userName);
  await page.getByLabel(/^Password/).fill(platform.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin/);
  await page.getByRole('link', { name: `Profile: ${platform.admin.userName}` }).waitFor();
}

/** The HTTP API as the signed-in browser user (its session cookie). */
async function apiAs(platform: Platform, page: Page) {
  const cookie = (await page.context().cookies()).map((item) => `${item.name}=${item.value}`).join('; ');
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${platform.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    assert.equal(response.status, 200, `${method} ${path}: ${await response.clone().text()}`);
    return (await response.json()) as T;
  };
}

interface ChallengeDetail {
  isEnabled: boolean;
  type: string;
  flags: Array<{ flag: string }>;
  attachment: { type: string; url: string; fileSize: number } | null;
}

describe('challenge authoring in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('an admin creates a static-attachment challenge with a file and a flag, and enables it', async () => {
    const page = await platform.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(platform, page);
    const api = await apiAs(platform, page);
    const now = Date.now();
    const game = await api<{ id: number }>('POST', '/api/edit/games', {
      title: 'Authoring cup',
      start: now - HOUR,
      end: now + 24 * HOUR,
    });

    const fileContent = 'the secret is in the second paragraph\n'.repeat(40);
    const { challengeId } = await authorStaticAttachmentChallenge(page, {
      gameId: game.id,
      title: 'Hidden in plain sight',
      flag: 'flag{pl41n_s1ght}',
      fileName: 'notes.txt',
      fileContent,
    });
    assert.ok(challengeId > 0);
    await platform.screenshot(page, 'challenge-flags');

    const detail = await api<ChallengeDetail>('GET', `/api/edit/games/${game.id}/challenges/${challengeId}`);
    assert.equal(detail.type, 'StaticAttachment');
    assert.equal(detail.isEnabled, true);
    assert.deepEqual(
      detail.flags.map((flag) => flag.flag),
      ['flag{pl41n_s1ght}'],
    );
    assert.equal(detail.attachment?.type, 'Local');
    assert.equal(detail.attachment?.fileSize, Buffer.byteLength(fileContent));
    const download = await fetch(`${platform.url}${detail.attachment?.url ?? ''}`);
    assert.equal(await download.text(), fileContent, 'the attachment serves the uploaded bytes');

    // The edit page shows the attachment with its size, the score curve and the enabled switch.
    await page.goto(`/admin/games/${game.id}/challenges/${challengeId}`);
    await page.getByTestId('current-attachment').getByText('Uploaded file, 1.48 KiB').waitFor();
    await page.getByTestId('score-curve').locator('.MuiChartsSurface-root').waitFor();
    await page.getByRole('switch', { name: 'Enable “Hidden in plain sight”', checked: true }).waitFor();
    await platform.screenshot(page, 'challenge-edit');

    // The list shows it enabled; a second one without a flag cannot be enabled and says why.
    await page.goto(`/admin/games/${game.id}/challenges`);
    await page.getByRole('switch', { name: 'Enable “Hidden in plain sight”', checked: true }).waitFor();
    await api('POST', `/api/edit/games/${game.id}/challenges`, {
      title: 'No flag yet',
      category: 'Crypto',
      type: 'StaticAttachment',
    });
    await page.reload();
    const flagless = page.getByRole('switch', { name: 'Enable “No flag yet”' });
    await flagless.click();
    await page.getByRole('alert').filter({ hasText: /flag/i }).first().waitFor();
    assert.equal(await flagless.isChecked(), false, 'the refused switch stays off');
    await platform.screenshot(page, 'challenge-list');

    // On a phone the rows stack and the switches stay reachable.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('switch', { name: 'Enable “Hidden in plain sight”', checked: true }).waitFor();
    await platform.screenshot(page, 'challenge-list-mobile');
    await page.goto(`/admin/games/${game.id}/challenges/${challengeId}`);
    await page.getByTestId('score-curve').locator('.MuiChartsSurface-root').waitFor();
    await platform.screenshot(page, 'challenge-edit-mobile');
    assert.deepEqual(pageErrors, []);
  });

  test('dynamic attachment pairs are uploaded as a batch, one flag per file', async () => {
    const page = await platform.newPage();
    await signIn(platform, page);
    const api = await apiAs(platform, page);
    const now = Date.now();
    const game = await api<{ id: number }>('POST', '/api/edit/games', {
      title: 'Pairs cup',
      start: now,
      end: now + HOUR,
    });
    const challenge = await api<{ id: number }>('POST', `/api/edit/games/${game.id}/challenges`, {
      title: 'One file each',
      category: 'Forensics',
      type: 'DynamicAttachment',
    });

    await page.goto(`/admin/games/${game.id}/challenges/${challenge.id}/flags`);
    await page.getByRole('heading', { name: 'Flags of “One file each”' }).waitFor();
    await page.getByTestId('batch-files').setInputFiles([
      { name: 'team-a.pcap', mimeType: 'application/octet-stream', buffer: Buffer.from('capture a') },
      { name: 'team-b.pcap', mimeType: 'application/octet-stream', buffer: Buffer.from('capture bb') },
    ]);
    await page.getByRole('textbox', { name: 'Flag for team-a.pcap' }).fill('flag{a}');
    await page.getByRole('textbox', { name: 'Flag for team-b.pcap' }).fill('flag{b}');
    await platform.screenshot(page, 'challenge-dynamic-pending');
    await page.getByRole('button', { name: 'Upload and add pairs (2)' }).click();
    await page.getByTestId('flag-row').nth(1).waitFor();
    await platform.screenshot(page, 'challenge-dynamic-flags');

    const detail = await api<ChallengeDetail>('GET', `/api/edit/games/${game.id}/challenges/${challenge.id}`);
    const pairs = await Promise.all(
      detail.flags.map(async (flag) => {
        const file = (flag as { attachment?: { url: string } }).attachment;
        const body = file ? await (await fetch(`${platform.url}${file.url}`)).text() : '';
        return [flag.flag, body];
      }),
    );
    assert.deepEqual(pairs.sort(), [
      ['flag{a}', 'capture a'],
      ['flag{b}', 'capture bb'],
    ]);
  });
});
