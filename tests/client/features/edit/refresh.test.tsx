import { configure, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ChallengeInfoModel, ParticipationInfoModel, WriteupInfoModel } from '@/features/edit/api';
import { server } from '../../msw';
import { API, renderApp } from '../../helpers/render';
import { game, mockAdmin, serveGame } from './support';

// The lists refresh every REFRESH_INTERVAL_MS (spec §7: 10 s); shortened here so a test sees a refresh
// without waiting for it. What is tested is that the lists refresh on their own, at that interval.
jest.mock('@/shared/api/baseApi', () => ({
  ...jest.requireActual<Record<string, unknown>>('@/shared/api/baseApi'),
  REFRESH_INTERVAL_MS: 300,
}));

jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5000 });
beforeAll(
  () =>
    Promise.all([
      import('@/features/edit/pages/ReviewPage'),
      import('@/features/edit/pages/WriteupsPage'),
      import('@/features/edit/challenges/pages/ChallengesPage'),
    ]),
  30_000,
);
beforeEach(() => mockAdmin());

const participation = (id: number, name: string): ParticipationInfoModel => ({
  id,
  status: 'Pending',
  division: null,
  registeredMembers: [`c${id}`],
  team: { id: 100 + id, name, locked: false, captainId: `c${id}`, avatar: null, members: [] },
});

const challenge = (id: number, title: string): ChallengeInfoModel => ({
  id,
  title,
  category: 'Misc',
  type: 'StaticAttachment',
  isEnabled: true,
  score: 500,
  minScore: 125,
  originalScore: 500,
});

const writeup = (id: number, name: string): WriteupInfoModel => ({
  id,
  team: { id: 100 + id, name, locked: true, avatar: null, members: null },
  url: `/assets/hash${id}/Writeup-${id}.pdf`,
  uploadTimeUtc: 1_900_000_000_000 + id,
});

/** A list the test grows while the page is open, answered with its total in X-Total-Count. */
function serveList<T>(url: string, initial: T[]) {
  const state = { items: initial };
  server.use(
    http.get(url, () => HttpResponse.json(state.items, { headers: { 'X-Total-Count': String(state.items.length) } })),
  );
  return state;
}

describe('the admin lists that show live data', () => {
  it('shows teams that join while the Review page is open', async () => {
    serveGame(game(6));
    const list = serveList(`${API}/game/:id/participations`, [participation(1, 'Early Eagles')]);
    renderApp('/admin/games/6/review');
    expect(await screen.findByRole('listitem', { name: 'Early Eagles' })).toBeInTheDocument();

    list.items = [...list.items, participation(2, 'Late Larks')];
    expect(await screen.findByRole('listitem', { name: 'Late Larks' })).toBeInTheDocument();
    expect(screen.getByText('Teams: 2')).toBeInTheDocument();
  });

  it('shows challenges added and scores moved while the challenge list is open', async () => {
    serveGame(game(7));
    const list = serveList(`${API}/edit/games/:id/challenges`, [challenge(11, 'Warmup')]);
    renderApp('/admin/games/7/challenges');
    const shown = await screen.findByRole('list', { name: 'Challenges' });
    expect(await within(shown).findByText('500 pts')).toBeInTheDocument();

    list.items = [{ ...challenge(11, 'Warmup'), score: 420 }, challenge(12, 'Second wind')];
    expect(await within(shown).findByRole('link', { name: 'Second wind' })).toBeInTheDocument();
    expect(within(shown).getByText('420 pts')).toBeInTheDocument();
  });

  it('shows writeups uploaded while the Writeups page is open', async () => {
    serveGame(game(8));
    const list = serveList(`${API}/admin/writeups/:id`, [writeup(1, 'Owls')]);
    renderApp('/admin/games/8/writeups');
    expect(await screen.findByText('Writeups submitted: 1')).toBeInTheDocument();

    list.items = [writeup(2, 'Foxes'), ...list.items];
    expect(await screen.findByText('Writeups submitted: 2')).toBeInTheDocument();
    const shown = screen.getByRole('list', { name: 'Submitted writeups' });
    expect(within(shown).getByRole('button', { name: /Foxes\s*Uploaded/ })).toBeInTheDocument();
  });
});
