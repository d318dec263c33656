import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { linkFrom } from '../helpers/mail-server';
import { startPlatform, type Platform } from './helpers/platform';

const USER = { userName: 'alice', email: 'alice@example.test', password: 'Alice-Passw0rd' } as const;

// Browser-side expressions are strings: this file is type-checked with the server's (DOM-less) settings.
const bodyBackground = (page: Page) => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');

/** A small real PNG (a diagonal gradient), as a camera roll would hold. */
async function avatarPng(): Promise<Buffer> {
  const size = 96;
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const offset = (y * size + x) * 3;
      pixels[offset] = 40 + x * 2;
      pixels[offset + 1] = 90 + y;
      pixels[offset + 2] = 200;
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

describe('accounts in Chromium', () => {
  let platform: Platform;
  before(async () => {
    // HashPow at its default difficulty: the browser solves real challenges in a Web Worker.
    platform = await startPlatform({ mail: true, env: { CAPTCHA_PROVIDER: 'HashPow' } });
    await platform.server.app.settings.update({
      accountPolicy: { activeOnRegister: false, emailConfirmationRequired: true, useCaptcha: true },
    });
  });
  after(async () => platform.close());

  test('register, confirm the e-mail from the mailed link, sign in, edit the profile and the avatar', async () => {
    const page = await platform.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto('/account/register');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    assert.equal(await bodyBackground(page), 'rgb(18, 20, 23)', 'dark is the default');
    await page.getByText('Browser check passed').waitFor({ timeout: 30_000 });

    // Client-side rules first: nothing reaches the server.
    await page.getByRole('textbox', { name: 'User name' }).fill('al');
    await page.getByRole('textbox', { name: 'E-mail' }).fill('alice@');
    await page.getByLabel(/^Password/).fill('alice1');
    await page.getByLabel(/^Confirm password/).fill('alice2');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('The user name must be 3 to 15 characters long.').waitFor();
    await page.getByText('The password must contain an upper-case letter.').waitFor();
    await page.getByText('The passwords do not match.').waitFor();
    await platform.screenshot(page, 'account-register-invalid');

    await page.getByRole('textbox', { name: 'User name' }).fill(USER.userName);
    await page.getByRole('textbox', { name: 'E-mail' }).fill(USER.email);
    await page.getByLabel(/^Password/).fill(USER.password);
    await page.getByLabel(/^Confirm password/).fill(USER.password);
    await page.getByText('Strength: strong').waitFor();
    await platform.screenshot(page, 'account-register-filled');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor({ timeout: 30_000 });
    await page.getByText(`We sent a confirmation link to ${USER.email}.`).waitFor();
    await platform.screenshot(page, 'account-register-check-mail');

    // Not confirmed yet: signing in fails with the server's reason.
    await page.goto('/account/login');
    await page.getByText('Browser check passed').waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'User name or e-mail' }).fill(USER.userName);
    await page.getByLabel(/^Password/).fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor({ timeout: 30_000 });
    assert.match(await refusal.innerText(), /not been verified/i);
    await platform.screenshot(page, 'account-login-unconfirmed');

    const mail = await platform.mail!.nextMailTo(USER.email);
    const { url } = linkFrom(mail);
    assert.equal(url.pathname, '/account/verify');
    await page.goto(url.pathname + url.search);
    await page.getByText('Your e-mail address is confirmed and you are signed in.').waitFor();
    await page.getByRole('link', { name: `Profile: ${USER.userName}` }).waitFor();
    await platform.screenshot(page, 'account-verified');

    // Sign out from the profile, then sign in again and come back to the profile.
    await page.getByRole('link', { name: `Profile: ${USER.userName}` }).click();
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('platform-title').waitFor();
    await page.goto('/account/profile');
    await page.waitForURL(/\/account\/login\?from=%2Faccount%2Fprofile$/);
    await page.getByText('Browser check passed').waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'User name or e-mail' }).fill(USER.email);
    await page.getByLabel(/^Password/).fill(USER.password);
    await platform.screenshot(page, 'account-login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/profile$/, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();

    await page.getByRole('textbox', { name: 'Real name' }).fill('Alice Liddell');
    await page.getByRole('textbox', { name: 'Student number' }).fill('2024-001');
    await page.getByRole('textbox', { name: 'Bio' }).fill('Reverse engineering and tea.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Profile saved').waitFor();
    await page.reload();
    await page.getByRole('textbox', { name: 'Bio' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Bio' }).inputValue(), 'Reverse engineering and tea.');

    await page.getByTestId('avatar-input').setInputFiles({
      name: 'alice.png',
      mimeType: 'image/png',
      buffer: await avatarPng(),
    });
    await page.getByText('Avatar updated').waitFor();
    const avatar = page.getByRole('img', { name: `Avatar of ${USER.userName}` });
    await avatar.waitFor();
    assert.match((await avatar.getAttribute('src')) ?? '', /^\/assets\/[0-9a-f]+\/avatar$/);
    await page.waitForFunction(
      `(() => { const img = document.querySelector('img[alt="Avatar of ${USER.userName}"]'); return img && img.complete && img.naturalWidth > 0; })()`,
    );
    await page.waitForTimeout(300);
    await platform.screenshot(page, 'account-profile');

    // A file that is not an image never leaves the browser.
    await page.getByTestId('avatar-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await page.getByText('notes.txt is not a supported image.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel(/^Current password/).fill(USER.password);
    await dialog.getByLabel(/^New password/).fill('Alice-Passw0rd-2');
    await dialog.getByLabel(/^Confirm password/).fill('Alice-Passw0rd-2');
    await platform.screenshot(page, 'account-password-dialog');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Password changed').waitFor();

    await page.setViewportSize({ width: 375, height: 760 });
    await page.waitForTimeout(300);
    await platform.screenshot(page, 'account-profile-narrow');
    assert.deepEqual(pageErrors, []);
    await page.context().close();
  });

  test('the recovery page mails a reset link that sets a new password', async () => {
    const page = await platform.newPage();
    await page.goto('/account/recovery');
    await page.getByText('Browser check passed').waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'E-mail' }).fill(USER.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    // The form gives way to the server's answer.
    await page.getByRole('button', { name: 'Send reset link' }).waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('status').waitFor();
    await platform.screenshot(page, 'account-recovery-sent');

    const { url } = linkFrom(await platform.mail!.nextMailTo(USER.email));
    assert.equal(url.pathname, '/account/reset');
    await page.goto(url.pathname + url.search);
    await page.getByLabel(/^New password/).fill('Alice-Reset-Passw0rd');
    await page.getByLabel(/^Confirm password/).fill('Alice-Reset-Passw0rd');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Your password has been changed. Sign in with the new one.').waitFor();

    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await page.getByText('Browser check passed').waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'User name or e-mail' }).fill(USER.userName);
    await page.getByLabel(/^Password/).fill('Alice-Reset-Passw0rd');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: `Profile: ${USER.userName}` }).waitFor({ timeout: 30_000 });
    await page.context().close();
  });

  test('the sign-in page on a phone', async () => {
    const page = await platform.newPage();
    await page.setViewportSize({ width: 375, height: 760 });
    await page.goto('/account/login');
    await page.getByText('Browser check passed').waitFor({ timeout: 30_000 });
    await platform.screenshot(page, 'account-login-narrow');
    await page.context().close();
  });
});
