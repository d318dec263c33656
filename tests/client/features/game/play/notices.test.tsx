import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { GameNotice } from '@/features/game/api';
import { openHub } from '@/shared/api/hub';
import { server } from '../../../msw';
import { API, renderApp } from '../../../helpers/render';
import { challenge, details, GAME_ID, gameInfo, mockPlayer } from './support';

// The hub is replaced by a fake whose handlers the test calls, as the server's pushes would.
jest.mock('@/shared/api/hub', () => ({ openHub: jest.fn(() => ({ stop: jest.fn() })) }));
const mockedOpenHub = jest.mocked(openHub);

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(() => import('@/features/game/pages/ChallengesPage'), 30_000);

const NOW = Date.now();
const NOTICES: GameNotice[] = [
  { id: 1, type: 'Normal', values: ['Welcome, **players**!'], time: NOW - 60_000 },
  { id: 2, type: 'NewChallenge', values: ['Warmup'], time: NOW - 30_000 },
];

function pushNotice(payload: unknown) {
  const handlers = mockedOpenHub.mock.calls.at(-1)![2];
  act(() => handlers.ReceivedGameNotice!(payload));
}

/** An accepted team's board of one challenge (Warmup, id 1), with the notices given. */
function servePlayer(notices: GameNotice[] = []) {
  mockPlayer(gameInfo({ status: 'Accepted', teamName: 'Red' }));
  server.use(
    http.get(`${API}/game/${GAME_ID}/details`, () =>
      HttpResponse.json(details([challenge({ id: 1, title: 'Warmup' })])),
    ),
    http.get(`${API}/game/${GAME_ID}/notices`, () => HttpResponse.json(notices)),
  );
}

const hubOpened = () =>
  waitFor(() => expect(mockedOpenHub).toHaveBeenCalledWith('/hub/user', { game: GAME_ID }, expect.anything()));

describe('the notice panel', () => {
  beforeEach(() => mockedOpenHub.mockClear());

  test('lists the notices newest first and adds pushed ones live, bloods highlighted and announced', async () => {
    mockPlayer(gameInfo({ status: 'Accepted', teamName: 'Red' }));
    server.use(
      http.get(`${API}/game/${GAME_ID}/details`, () =>
        HttpResponse.json(details([challenge({ id: 1, title: 'Warmup' })])),
      ),
      http.get(`${API}/game/${GAME_ID}/notices`, () => HttpResponse.json(NOTICES)),
    );
    renderApp(`/games/${GAME_ID}/challenges`);

    const panel = await screen.findByRole('region', { name: 'Notices' });
    await within(panel).findByText('New challenge: Warmup');
    const items = () => within(panel).getAllByRole('listitem');
    expect(items().map((item) => item.getAttribute('data-notice-type'))).toEqual(['NewChallenge', 'Normal']);
    expect(within(panel).getByText('players')).toBeInTheDocument(); // markdown rendered

    await waitFor(() => expect(mockedOpenHub).toHaveBeenCalledWith('/hub/user', { game: GAME_ID }, expect.anything()));
    // The hub sends ISO times (reference §6).
    pushNotice({
      id: 3,
      type: 'FirstBlood',
      values: ['Red', 'Warmup'],
      time: new Date(NOW).toISOString(),
    });
    expect(await within(panel).findByText('Red took first blood on Warmup')).toBeInTheDocument();
    expect(items()[0]).toHaveAttribute('data-notice-type', 'FirstBlood');
    expect(within(items()[0]!).getByText(/First blood/)).toBeInTheDocument();
    // And a notification says so, outside the panel.
    await waitFor(() => expect(screen.getAllByText('Red took first blood on Warmup')).toHaveLength(2));

    // The same notice again (a poll after the push) is not listed twice; junk is ignored.
    pushNotice({ id: 3, type: 'FirstBlood', values: ['Red', 'Warmup'], time: new Date(NOW).toISOString() });
    pushNotice({ hello: 'world' });
    expect(items()).toHaveLength(3);
  });

  test('announces pushed announcements, new hints and new challenges as notifications too', async () => {
    servePlayer();
    renderApp(`/games/${GAME_ID}/challenges`);
    const panel = await screen.findByRole('region', { name: 'Notices' });
    await hubOpened();
    const iso = new Date(NOW).toISOString();

    pushNotice({ id: 7, type: 'Normal', values: ['Warmup attachment replaced'], time: iso });
    // Once in the panel, once in the notification, under its own title.
    await waitFor(() => expect(screen.getAllByText('Warmup attachment replaced')).toHaveLength(2));
    expect(within(panel).getByText('Warmup attachment replaced')).toBeInTheDocument();
    expect(screen.getByText('Announcement')).toBeInTheDocument();

    pushNotice({ id: 8, type: 'NewHint', values: ['Warmup'], time: iso });
    await waitFor(() => expect(screen.getAllByText('New hint for Warmup')).toHaveLength(2));
    expect(screen.getByText('New hint')).toBeInTheDocument();

    pushNotice({ id: 9, type: 'NewChallenge', values: ['Tiny RSA'], time: iso });
    await waitFor(() => expect(screen.getAllByText('New challenge: Tiny RSA')).toHaveLength(2));
    expect(screen.getByText('New challenge')).toBeInTheDocument();
  });

  test('a pushed new hint refreshes the open challenge at once', async () => {
    servePlayer();
    let hints = ['Read the source'];
    server.use(
      http.get(`${API}/game/${GAME_ID}/challenges/1`, () =>
        HttpResponse.json({
          id: 1,
          title: 'Warmup',
          content: 'Find the flag.',
          category: 'Web',
          hints,
          score: 500,
          type: 'StaticAttachment',
          context: {},
        }),
      ),
    );
    renderApp(`/games/${GAME_ID}/challenges`);
    await hubOpened();
    await userEvent.click(await screen.findByRole('button', { name: /^Warmup / }));
    const dialog = await screen.findByRole('dialog', { name: 'Warmup' });
    expect(await within(dialog).findByText('Read the source')).toBeInTheDocument();

    hints = ['Read the source', 'Mind the robots.txt'];
    pushNotice({ id: 10, type: 'NewHint', values: ['Warmup'], time: new Date().toISOString() });
    // Sooner than the dialog's own 10 s refresh.
    expect(await within(dialog).findByText('Mind the robots.txt', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
