import { configure, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ChallengeDialog } from '@/features/game/components/ChallengeDialog';
import type { ChallengeDetailModel, ClientFlagContext, DetailedGameInfoModel } from '@/features/game/api';
import { server } from '../../../msw';
import { API, renderApp, renderWithProviders } from '../../../helpers/render';
import { challenge, details, GAME_ID, gameInfo, mockPlayer } from './support';

// The pages refresh every REFRESH_INTERVAL_MS (spec §7: 10 s); shortened here so a test sees a few
// refreshes without waiting for them. What is tested is that the pages refresh at all, and act on it.
jest.mock('@/shared/api/baseApi', () => ({
  ...jest.requireActual<Record<string, unknown>>('@/shared/api/baseApi'),
  REFRESH_INTERVAL_MS: 300,
}));

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(
  () => Promise.all([import('@/features/game/pages/ChallengesPage'), import('@/features/game/pages/GameDetailPage')]),
  30_000,
);

const WARMUP = challenge({ id: 1, title: 'Warmup', category: 'Misc' });

/**
 * The game and its details as the server sees them now; the test changes `game` and `refusal` (a
 * `{title, status}` body the details are refused with) while the page is open.
 */
function serveGame(game: DetailedGameInfoModel) {
  const state: { game: DetailedGameInfoModel; refusal: { title: string; status: number } | null } = {
    game,
    refusal: null,
  };
  mockPlayer(game);
  server.use(
    http.get(`${API}/game/${GAME_ID}`, () => HttpResponse.json(state.game)),
    http.get(`${API}/game/${GAME_ID}/details`, () =>
      state.refusal ? HttpResponse.json(state.refusal, { status: 400 }) : HttpResponse.json(details([WARMUP])),
    ),
    http.get(`${API}/game/${GAME_ID}/notices`, () => HttpResponse.json([])),
  );
  return state;
}

describe('the challenges page while the game runs', () => {
  test('leaves the board for the suspended message once an admin suspends the team', async () => {
    const state = serveGame(gameInfo({ status: 'Accepted', teamName: 'Red' }));
    renderApp(`/games/${GAME_ID}/challenges`);
    await screen.findByRole('button', { name: /^Warmup / });

    state.game = { ...state.game, status: 'Suspended' };
    state.refusal = { title: 'Your team is not accepted', status: 400 };
    expect(await screen.findByRole('heading', { name: 'Your team is suspended from this game' })).toBeInTheDocument();
    expect(screen.getByText('The participation of Red is suspended.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Warmup / })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Flag' })).not.toBeInTheDocument();
  });

  test('does not keep a refused board on screen as if it were live', async () => {
    // The game still says Accepted (a review not yet visible there): the refusal itself is shown.
    const state = serveGame(gameInfo({ status: 'Accepted', teamName: 'Red' }));
    renderApp(`/games/${GAME_ID}/challenges`);
    await screen.findByRole('button', { name: /^Warmup / });

    state.refusal = { title: 'Your team is not accepted', status: 400 };
    expect(await screen.findByText('Your team is not accepted')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Warmup / })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Red' })).not.toBeInTheDocument();
  });

  test('shows the end of the game when the server answers 10002, whatever this clock says', async () => {
    const state = serveGame(gameInfo({ status: 'Accepted', teamName: 'Red' }));
    renderApp(`/games/${GAME_ID}/challenges`);
    await screen.findByRole('button', { name: /^Warmup / });

    state.refusal = { title: 'The game has ended', status: 10002 };
    expect(await screen.findByRole('heading', { name: 'The game has ended' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Warmup / })).not.toBeInTheDocument();
  });
});

describe('the game page', () => {
  test('shows the review of a pending team without a reload', async () => {
    const state = serveGame(gameInfo({ status: 'Pending', teamName: 'Red' }));
    renderApp(`/games/${GAME_ID}`);
    expect(
      await screen.findByText("Your team Red has applied and waits for the organisers' review.", { exact: false }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Challenges' })).not.toBeInTheDocument();

    state.game = { ...state.game, status: 'Accepted' };
    expect(await screen.findByRole('link', { name: 'Challenges' })).toHaveAttribute(
      'href',
      `/games/${GAME_ID}/challenges`,
    );
    expect(screen.getByText('You play in this game with Red.', { exact: false })).toBeInTheDocument();
  });
});

describe('the challenge dialog', () => {
  test('follows the instance the server stopped after its close time', async () => {
    const INFO = challenge({ id: 3, title: 'Pwn me', category: 'Pwn' });
    const context: ClientFlagContext = { instanceEntry: '10.0.0.5:30001', closeTime: Date.now() + 1000 };
    server.use(
      http.get(`${API}/game/${GAME_ID}/challenges/3`, () =>
        HttpResponse.json({
          id: 3,
          title: 'Pwn me',
          content: 'Get a *shell*.',
          category: 'Pwn',
          hints: [],
          score: 500,
          type: 'DynamicContainer',
          context,
        } satisfies ChallengeDetailModel),
      ),
    );
    renderWithProviders(<ChallengeDialog gameId={GAME_ID} challenge={INFO} solved={false} onClose={() => undefined} />);
    const section = await screen.findByRole('region', { name: 'Instance' });
    expect(await within(section).findByRole('textbox', { name: 'Entry' })).toHaveValue('10.0.0.5:30001');

    // The server's cron destroys the expired container (reference §5.9).
    context.instanceEntry = null;
    context.closeTime = null;
    expect(await within(section).findByRole('button', { name: 'Start instance' })).toBeEnabled();
    expect(within(section).queryByRole('button', { name: 'Destroy' })).not.toBeInTheDocument();
  });
});
