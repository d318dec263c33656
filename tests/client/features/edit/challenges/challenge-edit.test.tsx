import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { challengeApi } from '@/features/edit/api';
import { enterText } from '../../../helpers/enterText';
import { API, renderApp } from '../../../helpers/render';
import { server } from '../../../msw';
import { detail, GAME_ID, serveChallenges } from './support';

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(() => import('@/features/edit/challenges/pages/ChallengeEditPage'), 30_000);

describe('the challenge editor', () => {
  it('uploads a file and sets it as the attachment by its hash', async () => {
    const sent = serveChallenges([detail({ id: 11 })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    const current = await screen.findByTestId('current-attachment');
    expect(within(current).getByText('No attachment.')).toBeInTheDocument();

    await userEvent.upload(screen.getByTestId('attachment-file'), new File(['x'.repeat(1536)], 'notes.txt'));
    await waitFor(() => expect(sent.attachments).toEqual([{ attachmentType: 'Local', fileHash: '1'.repeat(64) }]));
    expect(sent.uploads).toEqual([1]);
    expect(await within(current).findByRole('link', { name: 'notes.txt' })).toHaveAttribute(
      'href',
      `/assets/${'1'.repeat(64)}/notes.txt`,
    );
    expect(within(current).getByText('Uploaded file, 1.50 KiB')).toBeInTheDocument();
    expect(await screen.findByText('Attachment saved')).toBeInTheDocument();
  });

  it('saves the fields of its type, and keeps invalid ones from the server', async () => {
    const sent = serveChallenges([detail({ id: 11, hints: ['small e'] })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    const score = await screen.findByRole('textbox', { name: 'Original score' });
    await userEvent.clear(score);
    await userEvent.type(score, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A whole number from 1 to 100000.')).toBeInTheDocument();
    expect(sent.updates).toEqual([]);

    await userEvent.clear(score);
    await userEvent.type(score, '600');
    await userEvent.click(screen.getByRole('button', { name: 'Add hint' }));
    await enterText(screen.getByRole('textbox', { name: 'Hint 2' }), 'Håstad');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.updates).toHaveLength(1));
    expect(sent.updates[0]).toEqual({
      id: 11,
      body: {
        title: 'Baby RSA',
        category: 'Crypto',
        content: 'Find **e**.',
        hints: ['small e', 'Håstad'],
        originalScore: 600,
        minScoreRate: 0.25,
        difficulty: 5,
        disableBloodBonus: false,
      },
    });
    expect(await screen.findByText('Challenge saved')).toBeInTheDocument();
    expect(screen.getByText('Accepted solves: 0 · worth 600 points now · never below 150')).toBeInTheDocument();
  });

  it('shows container settings and the template rule only for container types', async () => {
    serveChallenges([detail({ id: 11, type: 'DynamicContainer' })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    expect(await screen.findByRole('textbox', { name: 'Image' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Flag template' })).toBeInTheDocument();
    expect(screen.getByText(/at least 32 bits of randomness/)).toBeInTheDocument();
    expect(screen.queryByTestId('current-attachment')).not.toBeInTheDocument();
  });

  it('starts from a fresh answer when the admin comes back, so a save keeps changes made meanwhile', async () => {
    const sent = serveChallenges([detail({ id: 11 })]);
    renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    expect(await screen.findByRole('textbox', { name: 'Description' })).toHaveValue('Find **e**.');
    await userEvent.click(screen.getByRole('link', { name: 'All challenges' }));
    await screen.findByRole('list', { name: 'Challenges' });

    // Another admin rewrites the statement while this one looks at the list.
    server.use(
      http.get(`${API}/edit/games/:id/challenges/:cId`, () =>
        HttpResponse.json(detail({ id: 11, content: 'Find **d**.' })),
      ),
    );
    await userEvent.click(await screen.findByRole('link', { name: 'Baby RSA' }));
    const content = await screen.findByRole('textbox', { name: 'Description' });
    expect(content).toHaveValue('Find **d**.');
    await enterText(screen.getByRole('textbox', { name: 'Title' }), ' 2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.updates).toHaveLength(1));
    expect(sent.updates[0]!.body).toMatchObject({ title: 'Baby RSA 2', content: 'Find **d**.' });
  });

  it('follows a reload while nothing is typed, and keeps typed edits through one', async () => {
    serveChallenges([detail({ id: 11 })]);
    const { store } = renderApp(`/admin/games/${GAME_ID}/challenges/11`);
    expect(await screen.findByRole('textbox', { name: 'Description' })).toHaveValue('Find **e**.');

    server.use(
      http.get(`${API}/edit/games/:id/challenges/:cId`, () =>
        HttpResponse.json(detail({ id: 11, title: 'Baby RSA (fixed)', content: 'Find **d**.' })),
      ),
    );
    store.dispatch(challengeApi.util.invalidateTags([{ type: 'Challenge', id: 11 }]));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue('Find **d**.'));
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Baby RSA (fixed)');

    await enterText(screen.getByRole('textbox', { name: 'Title' }), ' (mine)');
    server.use(
      http.get(`${API}/edit/games/:id/challenges/:cId`, () =>
        HttpResponse.json(detail({ id: 11, title: 'Theirs', content: 'Find **n**.' })),
      ),
    );
    store.dispatch(challengeApi.util.invalidateTags([{ type: 'Challenge', id: 11 }]));
    // The reload has landed (the heading shows the stored title); the form is as typed.
    expect(await screen.findByRole('heading', { name: 'Theirs', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Baby RSA (fixed) (mine)');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue('Find **d**.');
  });

  it('shows the not-found page for a challenge id that is not a number, without asking for it', async () => {
    serveChallenges([detail({ id: 11 })]);
    const asked: string[] = [];
    server.use(
      http.all(`${API}/edit/games/:id/challenges/:cId`, ({ request }) => {
        asked.push(request.url);
        return HttpResponse.json({ title: 'Challenge not found', status: 404 }, { status: 404 });
      }),
    );
    renderApp(`/admin/games/${GAME_ID}/challenges/abc`);
    expect(await screen.findByRole('heading', { name: 'Page not found', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(asked).toEqual([]);
  });
});
