import type { Page } from 'playwright-core';

export interface StaticAttachmentChallenge {
  gameId: number;
  title: string;
  flag: string;
  fileName: string;
  fileContent: string;
}

const TIMEOUT = 20_000;

/**
 * Authors a StaticAttachment challenge through the admin pages, as an admin would: create it from the
 * game's challenge list, upload its attachment on the edit page, add the flag on the Flags page and
 * enable it. Starts from any page of a signed-in admin; returns once the switch shows it enabled.
 */
export async function authorStaticAttachmentChallenge(
  page: Page,
  o: StaticAttachmentChallenge,
): Promise<{ challengeId: number }> {
  await page.goto(`/admin/games/${o.gameId}/challenges`);
  await page.getByRole('button', { name: 'New challenge' }).click({ timeout: TIMEOUT });

  const dialog = page.getByRole('dialog', { name: 'New challenge' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill(o.title);
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: /^Static attachment/ }).click();
  await dialog.getByRole('button', { name: 'Create' }).click();

  // Creating opens the new challenge's edit page.
  await page.waitForURL(/\/admin\/games\/\d+\/challenges\/\d+$/, { timeout: TIMEOUT });
  const challengeId = Number(/\/challenges\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
  if (!Number.isInteger(challengeId)) throw new Error(`no challenge id in ${page.url()}`);
  await page.getByRole('heading', { name: o.title, level: 2 }).waitFor({ timeout: TIMEOUT });

  // The file goes to /api/assets, then becomes the attachment by its hash.
  await page.getByTestId('attachment-file').setInputFiles({
    name: o.fileName,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(o.fileContent),
  });
  await page.getByTestId('current-attachment').getByRole('link', { name: o.fileName }).waitFor({ timeout: TIMEOUT });

  await page.getByRole('link', { name: /^Flags \(/ }).click();
  await page.waitForURL(/\/flags$/, { timeout: TIMEOUT });
  await page.getByRole('textbox', { name: 'New flags' }).fill(o.flag);
  await page.getByRole('button', { name: /^Add flags/ }).click();
  await page.getByTestId('flag-row').filter({ hasText: o.flag }).waitFor({ timeout: TIMEOUT });

  const enable = `Enable “${o.title}”`;
  await page.getByRole('switch', { name: enable }).click();
  await page.getByRole('switch', { name: enable, checked: true, disabled: false }).waitFor({ timeout: TIMEOUT });
  return { challengeId };
}
