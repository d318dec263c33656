import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { API, mockPlatform, renderApp } from '../../helpers/render';
import { server } from '../../msw';
import { ADMIN, mockPosts, PLAYER, post, servePostStore } from './support';

const POSTS = [
  post('a1a1a1a1', 'Old news', Date.UTC(2025, 0, 1), { tags: ['misc'] }),
  post('b2b2b2b2', 'Rules', Date.UTC(2024, 5, 1), { isPinned: true, tags: ['rules', 'important'] }),
  post('c3c3c3c3', 'Fresh', Date.UTC(2025, 2, 1), { authorName: 'Carol' }),
];

/** POSTS as the server stores them, with their content. */
const STORED = POSTS.map((item) => ({ ...item, content: `${item.title.split(' ')[0]} **text**` }));

const cardTitles = () =>
  screen.getAllByTestId('post-card').map((card) => within(card).getByRole('heading').textContent);

async function openPosts(path = '/posts') {
  const view = renderApp(path);
  await screen.findByRole('heading', { name: 'Posts', level: 1 }, { timeout: 5000 });
  await screen.findAllByTestId('post-card');
  return view;
}

describe('the posts list', () => {
  it('shows pinned posts first, then the newest, with summary, tags, author and time', async () => {
    mockPlatform({ profile: PLAYER });
    mockPosts(POSTS);
    await openPosts();
    expect(cardTitles()).toEqual(['Rules', 'Fresh', 'Old news']);
    const [rules, fresh] = screen.getAllByTestId('post-card');
    expect(within(rules!).getByText('Pinned')).toBeInTheDocument();
    expect(within(rules!).getByText('Summary of Rules')).toBeInTheDocument();
    expect(within(rules!).getByRole('list', { name: 'Tags' })).toHaveTextContent('rulesimportant');
    expect(within(fresh!).getByText(/by Carol/)).toBeInTheDocument();
    expect(within(fresh!).getByRole('link')).toHaveAttribute('href', '/posts/c3c3c3c3');
    // Shown in the reader's language and time zone; machine-readable in the attribute.
    expect(fresh!.querySelector('time')).toHaveAttribute('datetime', '2025-03-01T00:00:00.000Z');
  });

  it('shows only the time for a post without an author, not "by unknown"', async () => {
    mockPlatform({ profile: PLAYER });
    mockPosts([post('e5e5e5e5', 'Orphan', Date.UTC(2025, 1, 1), { authorName: null })]);
    await openPosts();
    const [card] = screen.getAllByTestId('post-card');
    expect(card).not.toHaveTextContent(/\bby\b/);
    expect(card!.querySelector('time')).toHaveAttribute('datetime', '2025-02-01T00:00:00.000Z');
  });

  it('gives players no admin controls', async () => {
    mockPlatform({ profile: PLAYER });
    mockPosts(POSTS);
    await openPosts();
    expect(screen.queryByRole('link', { name: 'New post' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Pin|Unpin) / })).not.toBeInTheDocument();
  });

  it('gives admins "new post" and a pin toggle per post, which pins with the whole post and refreshes the list', async () => {
    mockPlatform({ profile: ADMIN });
    const store = servePostStore(STORED);
    await openPosts();
    expect(screen.getByRole('link', { name: 'New post' })).toHaveAttribute('href', '/posts/new/edit');
    expect(screen.getByRole('button', { name: 'Unpin “Rules”' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Pin “Old news”' }));
    await waitFor(() => expect(cardTitles()).toEqual(['Old news', 'Rules', 'Fresh']));
    // Whichever branch of the server's rule the update takes, the text goes back as it was.
    expect(store.updates).toEqual([
      {
        id: 'a1a1a1a1',
        body: {
          title: 'Old news',
          summary: 'Summary of Old news',
          content: 'Old **text**',
          tags: ['misc'],
          isPinned: true,
        },
      },
    ]);
    expect(store.posts[0]).toMatchObject({ isPinned: true, content: 'Old **text**', tags: ['misc'] });
    expect(await screen.findByText('Post pinned')).toBeInTheDocument();
  });

  it('pins from a list that is out of date without wiping the post', async () => {
    mockPlatform({ profile: ADMIN });
    const store = servePostStore(STORED);
    await openPosts();
    // Another admin pins it; this list still offers "pin".
    store.posts = store.posts.map((item) => (item.id === 'a1a1a1a1' ? { ...item, isPinned: true } : item));

    await userEvent.click(screen.getByRole('button', { name: 'Pin “Old news”' }));
    expect(await screen.findByRole('button', { name: 'Unpin “Old news”' })).toHaveAttribute('aria-pressed', 'true');
    expect(store.posts[0]).toMatchObject({
      isPinned: true,
      summary: 'Summary of Old news',
      content: 'Old **text**',
      tags: ['misc'],
    });
    // Already pinned: nothing to write (an update would rewrite the author and time).
    expect(store.updates).toEqual([]);
  });

  it('survives a second click on "pin" before the list has refreshed', async () => {
    mockPlatform({ profile: ADMIN });
    const store = servePostStore(STORED);
    await openPosts();
    // The list's refresh after the first pin hangs until released.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(`${API}/posts`, async () => {
        await held;
        return HttpResponse.json(store.posts.map(({ content: _content, ...rest }) => rest));
      }),
    );

    try {
      await userEvent.click(screen.getByRole('button', { name: 'Pin “Old news”' }));
      await waitFor(() => expect(store.updates).toHaveLength(1));
      const stale = await screen.findByRole('button', { name: 'Pin “Old news”' });
      await waitFor(() => expect(stale).toBeEnabled());
      await userEvent.click(stale);
      expect(await screen.findAllByText('Post pinned')).toHaveLength(2);
    } finally {
      release();
    }

    expect(await screen.findByRole('button', { name: 'Unpin “Old news”' })).toBeInTheDocument();
    expect(store.updates).toHaveLength(1);
    expect(store.posts[0]).toMatchObject({ isPinned: true, summary: 'Summary of Old news', content: 'Old **text**' });
  });

  it('pages through many posts, ten at a time', async () => {
    mockPlatform();
    mockPosts(
      Array.from({ length: 12 }, (_, index) => post(`p${String(index).padStart(7, '0')}`, `Post ${index}`, index)),
    );
    const { router } = await openPosts();
    expect(screen.getAllByTestId('post-card')).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getAllByTestId('post-card')).toHaveLength(2));
    expect(router.state.location.search).toBe('?page=2');
    expect(cardTitles()).toEqual(['Post 1', 'Post 0']);
  });

  it('says when there are no posts yet', async () => {
    mockPlatform();
    mockPosts([]);
    renderApp('/posts');
    expect(await screen.findByText('No posts yet.', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('one post', () => {
  const detail = {
    ...post('d4d4d4d4', 'Scoring changes', Date.UTC(2025, 4, 2, 9, 30), { tags: ['rules'], authorName: 'Dana' }),
    content: [
      '## What changed',
      '',
      'Blood bonuses are **back**. <script>window.pwned = 1</script>',
      '<img src="x" onerror="window.pwned = 2"> [details](javascript:alert(1)) [FAQ](/posts/faq)',
    ].join('\n'),
  };

  it('renders the markdown content, sanitised, with author and time', async () => {
    mockPlatform({ profile: PLAYER });
    server.use(http.get(`${API}/posts/d4d4d4d4`, () => HttpResponse.json(detail)));
    renderApp('/posts/d4d4d4d4');
    expect(
      await screen.findByRole('heading', { name: 'Scoring changes', level: 1 }, { timeout: 5000 }),
    ).toBeInTheDocument();
    const content = screen.getByTestId('post-content');
    expect(within(content).getByRole('heading', { name: 'What changed', level: 2 })).toBeInTheDocument();
    expect(within(content).getByText('back').tagName).toBe('STRONG');
    expect(within(content).getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/posts/faq');
    expect(content.innerHTML).not.toMatch(/<script|onerror|javascript:/i);
    expect((window as { pwned?: number }).pwned).toBeUndefined();
    expect(screen.getByText(/by Dana/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All posts' })).toHaveAttribute('href', '/posts');
  });

  it('offers admins the editor', async () => {
    mockPlatform({ profile: ADMIN });
    server.use(http.get(`${API}/posts/d4d4d4d4`, () => HttpResponse.json(detail)));
    renderApp('/posts/d4d4d4d4');
    expect(await screen.findByRole('link', { name: 'Edit' }, { timeout: 5000 })).toHaveAttribute(
      'href',
      '/posts/d4d4d4d4/edit',
    );
  });

  it('says so, quietly, when the post does not exist', async () => {
    mockPlatform();
    server.use(
      http.get(`${API}/posts/nope`, () => HttpResponse.json({ title: 'Post not found', status: 404 }, { status: 404 })),
    );
    const { store } = renderApp('/posts/nope');
    expect(
      await screen.findByText('This post does not exist or has been deleted.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(store.getState().notifications.queue).toEqual([]);
  });
});

describe('the home page', () => {
  it('lists the latest posts, pinned first, with a link to all posts', async () => {
    mockPlatform({ latestPosts: [POSTS[0], POSTS[2], POSTS[1]] });
    renderApp('/');
    const section = await screen.findByRole('region', { name: 'Latest posts' }, { timeout: 5000 });
    await within(section).findAllByTestId('post-card');
    expect(
      within(section)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Rules', 'Fresh', 'Old news']);
    expect(within(section).getByRole('link', { name: 'All posts' })).toHaveAttribute('href', '/posts');
    expect(within(section).queryByRole('button', { name: /^Pin / })).not.toBeInTheDocument();
  });

  it('lets admins pin from the home page too', async () => {
    mockPlatform({ profile: ADMIN, latestPosts: POSTS });
    renderApp('/');
    const section = await screen.findByRole('region', { name: 'Latest posts' }, { timeout: 5000 });
    expect(await within(section).findByRole('button', { name: 'Pin “Fresh”' })).toBeInTheDocument();
  });
});
