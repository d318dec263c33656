import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { enterText } from '../../helpers/enterText';
import { API, mockPlatform, renderApp } from '../../helpers/render';
import { server } from '../../msw';
import { ADMIN, PLAYER, post, servePostStore } from './support';

// Typing whole posts with user-event is slow in jsdom.
jest.setTimeout(20_000);

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input, textarea' });

const STORED = {
  ...post('e5e5e5e5', 'Schedule', Date.UTC(2025, 1, 1), { tags: ['info'] }),
  summary: 'When things happen',
  content: 'Starts **Friday**.',
};

describe('the post editor', () => {
  it('asks signed-out visitors to sign in as an admin', async () => {
    mockPlatform();
    renderApp('/posts/new/edit');
    await waitFor(
      () => {
        expect(screen.getByText('Sign in with an admin account to write or edit posts.')).toBeInTheDocument();
        expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
          'href',
          '/account/login?from=%2Fposts%2Fnew%2Fedit',
        );
      },
      { timeout: 5000 },
    );
  });

  it('tells other users they are not allowed, without loading the form', async () => {
    mockPlatform({ profile: PLAYER });
    renderApp('/posts/e5e5e5e5/edit');
    expect(await screen.findByText('Only admins can write or edit posts.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('writes a new post with a live, sanitised preview', async () => {
    mockPlatform({ profile: ADMIN });
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/edit/posts`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json('f6f6f6f6');
      }),
      http.get(`${API}/posts/f6f6f6f6`, () =>
        HttpResponse.json({ ...post('f6f6f6f6', 'Welcome', Date.now()), content: 'Hello' }),
      ),
    );
    const { router } = renderApp('/posts/new/edit');
    await screen.findByRole('heading', { name: 'New post', level: 1 }, { timeout: 5000 });

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give the post a title.')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await enterText(field(/^Title/), 'Welcome');
    await enterText(field(/^Summary/), 'Read me first');
    await userEvent.type(field(/^Tags/), 'news{Enter}News{Enter}rules{Enter}');
    await userEvent.click(screen.getByRole('switch', { name: 'Pin to the top of the lists' }));
    await userEvent.click(field(/^Content/));
    await userEvent.paste('# Hi\n<img src=x onerror="window.pwned=1">**bold**');
    // jsdom is a narrow screen: source and preview share one place, behind tabs.
    await userEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    const preview = await screen.findByTestId('post-preview');
    await waitFor(() => expect(within(preview).getByText('bold').tagName).toBe('STRONG'));
    expect(within(preview).getByRole('heading', { name: 'Hi', level: 1 })).toBeInTheDocument();
    expect(preview.innerHTML).not.toMatch(/onerror/);
    await userEvent.click(screen.getByRole('tab', { name: 'Write' }));
    expect(field(/^Content/)).toHaveValue('# Hi\n<img src=x onerror="window.pwned=1">**bold**');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/posts/f6f6f6f6'));
    expect(bodies).toEqual([
      {
        title: 'Welcome',
        summary: 'Read me first',
        content: '# Hi\n<img src=x onerror="window.pwned=1">**bold**',
        tags: ['news', 'rules'],
        isPinned: true,
      },
    ]);
  });

  it('saves the text first and then the pin, since a pin change alone is applied', async () => {
    mockPlatform({ profile: ADMIN });
    const store = servePostStore([STORED]);
    const { router } = renderApp('/posts/e5e5e5e5/edit');
    await screen.findByRole('heading', { name: 'Edit post', level: 1 }, { timeout: 5000 });
    expect(field(/^Title/)).toHaveValue('Schedule');
    expect(field(/^Content/)).toHaveValue('Starts **Friday**.');
    await userEvent.type(field(/^Title/), ' 2025');
    await userEvent.click(screen.getByRole('switch', { name: 'Pin to the top of the lists' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/posts/e5e5e5e5'));
    const text = {
      title: 'Schedule 2025',
      summary: 'When things happen',
      content: 'Starts **Friday**.',
      tags: ['info'],
    };
    expect(store.updates.map((update) => update.body)).toEqual([
      { ...text, isPinned: false },
      { ...text, isPinned: true },
    ]);
    expect(store.posts[0]).toMatchObject({ ...text, isPinned: true });
  });

  it('keeps the text, and a pin set elsewhere, when the post was pinned after the editor opened', async () => {
    mockPlatform({ profile: ADMIN });
    const store = servePostStore([STORED]);
    const { router } = renderApp('/posts/e5e5e5e5/edit');
    await screen.findByRole('heading', { name: 'Edit post', level: 1 }, { timeout: 5000 });
    expect(screen.getByRole('switch', { name: 'Pin to the top of the lists' })).not.toBeChecked();
    // Another admin pins the post from the list.
    store.posts = [{ ...store.posts[0]!, isPinned: true }];

    await userEvent.clear(field(/^Content/));
    await userEvent.type(field(/^Content/), 'Starts on Saturday.');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/posts/e5e5e5e5'));
    expect(store.posts[0]).toMatchObject({ content: 'Starts on Saturday.', isPinned: true });
    expect(store.updates.map((update) => update.body.isPinned)).toEqual([true]);
  });

  it('sends the text again when the pin moved between reading the post and saving it', async () => {
    mockPlatform({ profile: ADMIN });
    const store = servePostStore([STORED]);
    const { router } = renderApp('/posts/e5e5e5e5/edit');
    await screen.findByRole('heading', { name: 'Edit post', level: 1 }, { timeout: 5000 });
    // Pinned elsewhere after the save read the post but before its update arrives: the server then
    // applies only the (old) pin, and answers with the old text.
    store.beforeNextUpdate = () => {
      store.posts = [{ ...store.posts[0]!, isPinned: true }];
    };

    await userEvent.type(field(/^Summary/), ' and where');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/posts/e5e5e5e5'));
    expect(store.updates).toHaveLength(2);
    expect(store.updates[1]!.body).toEqual(store.updates[0]!.body);
    expect(store.posts[0]).toMatchObject({ summary: 'When things happen and where', content: 'Starts **Friday**.' });
  });

  it('starts from the post as stored now, not a copy cached by the post page', async () => {
    mockPlatform({ profile: ADMIN });
    const store = servePostStore([STORED]);
    const { router } = renderApp('/posts/e5e5e5e5');
    expect(await screen.findByText('Friday', {}, { timeout: 5000 })).toBeInTheDocument();
    store.posts[0]!.content = 'Starts **Saturday**.';
    await router.navigate('/posts/e5e5e5e5/edit');
    await screen.findByRole('heading', { name: 'Edit post', level: 1 }, { timeout: 5000 });
    await waitFor(() => expect(field(/^Content/)).toHaveValue('Starts **Saturday**.'));
  });

  it('deletes a post only after confirmation', async () => {
    mockPlatform({ profile: ADMIN });
    const deleted: string[] = [];
    server.use(
      http.get(`${API}/posts/e5e5e5e5`, () => HttpResponse.json(STORED)),
      http.get(`${API}/posts`, () => HttpResponse.json([])),
      http.delete(`${API}/edit/posts/:id`, ({ params }) => {
        deleted.push(String(params.id));
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { router } = renderApp('/posts/e5e5e5e5/edit');
    await screen.findByRole('heading', { name: 'Edit post', level: 1 }, { timeout: 5000 });

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this post?' });
    expect(dialog).toHaveTextContent('“Schedule” will be removed for everyone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this post?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/posts'));
    expect(deleted).toEqual(['e5e5e5e5']);
  });
});
