import type { Page } from 'playwright-core';

// Clicks each shown notification's close button. (A string: this file is compiled without the DOM's types.)
const CLOSE_ALL = `document
  .querySelectorAll('.ctf-notifications [role="alert"] button')
  .forEach((button) => button.click())`;

/**
 * Closes every notification on the page and waits for them to leave. They sit bottom-right, over a
 * tall dialog's actions, and notistack pauses a notification's timer while the pointer is over it:
 * a click aimed at a button beneath one keeps it open, so the click never lands. A person closes it
 * or moves the pointer away; a test closes it. With a dialog open the app's root is aria-hidden, so
 * the notifications are found by their container, not by role.
 */
export async function dismissNotifications(page: Page): Promise<void> {
  await page.evaluate(CLOSE_ALL);
  await page.locator('.ctf-notifications [role="alert"]').first().waitFor({ state: 'detached' });
}
