import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { enterText } from '../../../helpers/enterText';
import { server } from '../../../msw';
import { API, mockPlatform, renderApp } from '../../../helpers/render';
import { GAME_ID, gameInfo, mockPlayer } from './support';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(() => import('@/features/game/pages/GameDetailPage'), 30_000);

/** Records the join calls' bodies; answers with `reply` (200 by default). */
function recordJoins(reply?: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(`${API}/game/${GAME_ID}`, async ({ request }) => {
      bodies.push(await request.json());
      return reply?.() ?? new HttpResponse(null, { status: 200 });
    }),
  );
  return bodies;
}

describe('a game that does not exist', () => {
  test('is said so, with a way back to the games rather than a retry', async () => {
    mockPlatform();
    server.use(
      http.get(`${API}/game/999`, () => HttpResponse.json({ title: 'Game not found', status: 404 }, { status: 404 })),
    );
    renderApp('/games/999');
    expect(await screen.findByText('Game not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All games' })).toHaveAttribute('href', '/games');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});

describe('joining a game', () => {
  test('signed-out visitors are asked to sign in and come back', async () => {
    mockPlatform();
    server.use(http.get(`${API}/game/${GAME_ID}`, () => HttpResponse.json(gameInfo())));
    renderApp(`/games/${GAME_ID}`);
    expect(await screen.findByRole('heading', { name: 'Spring CTF', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to take part' })).toHaveAttribute(
      'href',
      `/account/login?from=%2Fgames%2F${GAME_ID}`,
    );
    expect(screen.getByText('the rules')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join the game' })).not.toBeInTheDocument();
  });

  test('sends the chosen team, division and invite code', async () => {
    mockPlayer(gameInfo({ divisions: ['Students', 'Open'], inviteCodeRequired: true }), [
      { id: 1, name: 'Red' },
      { id: 2, name: 'Blue' },
    ]);
    const bodies = recordJoins();
    renderApp(`/games/${GAME_ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Join the game' }));
    const dialog = await screen.findByRole('dialog', { name: 'Join Spring CTF' });

    // Nothing chosen yet: the dialog says what is missing and sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(within(dialog).getByText('Choose a team.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a division.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the invite code.')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('combobox', { name: /Team/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Blue' }));
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Division/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Open' }));
    await enterText(within(dialog).getByRole('textbox', { name: /Invite code/ }), ' s3cret ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join' }));

    await screen.findByRole('button', { name: 'Join the game' }); // the dialog closed
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bodies).toEqual([{ teamId: 2, division: 'Open', inviteCode: 's3cret' }]);
  });

  test('a game without divisions or code sends nulls, and a refusal shows in the dialog', async () => {
    mockPlayer(gameInfo());
    const bodies = recordJoins(() => HttpResponse.json({ title: 'Your team is full', status: 400 }, { status: 400 }));
    renderApp(`/games/${GAME_ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Join the game' }));
    const dialog = await screen.findByRole('dialog', { name: 'Join Spring CTF' });
    expect(within(dialog).queryByRole('combobox', { name: /Division/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /Invite code/ })).not.toBeInTheDocument();
    // The only team is chosen already.
    await within(dialog).findByText('Red');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(await within(dialog).findByText('Your team is full')).toBeInTheDocument();
    expect(bodies).toEqual([{ teamId: 1, division: null, inviteCode: null }]);
  });

  test('a pending team may leave; an accepted one goes on to the challenges', async () => {
    mockPlayer(gameInfo({ status: 'Pending', teamName: 'Red' }));
    renderApp(`/games/${GAME_ID}`);
    expect(
      await screen.findByText("Your team Red has applied and waits for the organisers' review.", { exact: false }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave the game' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Challenges' })).not.toBeInTheDocument();
  });

  test('a user without a team is sent to the teams page', async () => {
    mockPlayer(gameInfo(), []);
    renderApp(`/games/${GAME_ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Join the game' }));
    const dialog = await screen.findByRole('dialog', { name: 'Join Spring CTF' });
    expect(await within(dialog).findByRole('link', { name: 'Create or join a team' })).toHaveAttribute(
      'href',
      '/teams',
    );
    expect(within(dialog).getByRole('button', { name: 'Join' })).toBeDisabled();
  });
});
