import { act, configure, screen, waitFor, within } from '@testing-library/react';
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
});
