import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signInWithApi, startPlatform, type Platform } from './helpers/platform';

const CONTENT = [
  '## Opening hours',
  '',
  'The game opens on **Friday at 18:00** and closes on Sunday.',
  '',
  '- one flag per challenge',
  '- no attacks on the platform',
  '',
  '<script>window.pwned = true</script><img src="x" onerror="window.pwned = true">',
  '[Rules](/posts)',
].join('\n');

describe('posts in Chromium', () => {
  let platform: Platform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform.close());

  test('an admin writes a pinned post that shows first on the home page', async () => {
    const page = await platform.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInWithApi(platform, page, platform.admin.userName, platform.admin.password);
    await page.goto('/posts');

    // The platform starts with its welcome post.
    await page.getByTestId('post-card').first().waitFor();
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Finals weekend');
    await page.getByRole('textbox', { name: 'Summary' }).fill('When the finals run and the two rules that matter.');
    const tags = page.getByRole('combobox', { name: 'Tags' });
    await tags.fill('schedule');
    await tags.press('Enter');
    await tags.fill('rules');
    await tags.press('Enter');
    await page.getByRole('switch', { name: 'Pin to the top of the lists' }).check();
    await page.getByRole('textbox', { name: 'Content' }).fill(CONTENT);
    const preview = page.getByTestId('post-preview');
    await preview.getByRole('heading', { name: 'Opening hours' }).waitFor();
    await platform.screenshot(page, 'posts-editor');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL(/\/posts\/[0-9a-f]{8}$/);
    const postPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: 'Finals weekend', level: 1 }).waitFor();
    const content = page.getByTestId('post-content');
    await content.getByRole('heading', { name: 'Opening hours', level: 2 }).waitFor();
    assert.equal(await content.locator('strong').innerText(), 'Friday at 18:00');
    assert.doesNotMatch(await content.innerHTML(), /<script|onerror/i);
    assert.equal(await page.evaluate<unknown>('window.pwned'), undefined);
    await page.getByText('Post published').waitFor();
    await platform.screenshot(page, 'posts-detail');

    await page.getByRole('link', { name: 'Home' }).click();
    const latest = page.getByRole('region', { name: 'Latest posts' });
    await latest.getByRole('heading', { name: 'Finals weekend' }).waitFor();
    const titles = await latest.getByRole('heading', { level: 3 }).allInnerTexts();
    assert.equal(titles[0], 'Finals weekend', 'the pinned post comes first');
    assert.ok(titles.length >= 2, 'the welcome post is listed too');
    await platform.screenshot(page, 'posts-home');

    // Unpin from the list; the welcome post moves back above it (newest first is the other order).
    await page.goto('/posts');
    await page.getByRole('button', { name: 'Unpin “Finals weekend”' }).click();
    await page.getByRole('button', { name: 'Pin “Finals weekend”' }).waitFor();
    await page.getByText('Post unpinned').waitFor();
    await platform.screenshot(page, 'posts-list-admin');

    // Edit and delete.
    await page.goto(`${postPath}/edit`);
    await page.getByRole('textbox', { name: 'Title' }).fill('Finals weekend (moved)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Finals weekend (moved)', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this post?' });
    await confirm.getByRole('button', { name: 'Delete' }).waitFor();
    await page.waitForTimeout(300);
    await platform.screenshot(page, 'posts-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/posts$/);
    await page.getByText('Post deleted').waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Finals weekend (moved)' }).count(), 0);
    assert.deepEqual(pageErrors, []);
    await page.context().close();
  });

  test('visitors read posts but cannot open the editor', async () => {
    const page = await platform.newPage();
    await page.goto('/posts');
    await page.getByTestId('post-card').first().waitFor();
    assert.equal(await page.getByRole('link', { name: 'New post' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^(Pin|Unpin) / }).count(), 0);
    await platform.screenshot(page, 'posts-list-visitor');

    await page.getByTestId('post-card').first().getByRole('link').click();
    await page.getByTestId('post-content').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Edit' }).count(), 0);

    await page.goto('/posts/new/edit');
    await page.getByText('Sign in with an admin account to write or edit posts.').waitFor();
    await platform.screenshot(page, 'posts-editor-signed-out');

    await page.setViewportSize({ width: 375, height: 760 });
    await page.goto('/posts');
    await page.getByTestId('post-card').first().waitFor();
    await platform.screenshot(page, 'posts-list-narrow');
    await page.context().close();
  });
});
