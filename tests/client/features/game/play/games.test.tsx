import { configure, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { BasicGameInfoModel } from '@/features/game/api';
import { server } from '../../../msw';
import { API, mockPlatform, renderApp } from '../../../helpers/render';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
beforeAll(() => import('@/features/game/pages/GamesPage'), 30_000);

const HOUR = 3_600_000;
const now = Date.now();
const GAMES: BasicGameInfoModel[] = [
  { id: 1, title: 'Live Cup', summary: 'Happening now', poster: null, limit: 4, start: now - HOUR, end: now + HOUR },
  { id: 2, title: 'Next Cup', summary: '', poster: null, limit: 1, start: now + HOUR, end: now + 2 * HOUR },
  { id: 3, title: 'Old Cup', summary: '', poster: null, limit: 0, start: now - 3 * HOUR, end: now - 2 * HOUR },
];

describe('the games list and the recent games', () => {
  test('cards show status, summary and team limit, and link to the game', async () => {
    mockPlatform();
    const asked: string[] = [];
    server.use(
      http.get(`${API}/game`, ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json({ data: GAMES, length: 3, total: 3 });
      }),
    );
    renderApp('/games');
    const live = await screen.findByRole('article', { name: 'Live Cup' });
    expect(within(live).getByText('Running')).toBeInTheDocument();
    expect(within(live).getByText('Happening now')).toBeInTheDocument();
    expect(within(live).getByText('Teams of up to 4')).toBeInTheDocument();
    expect(within(live).getByRole('link')).toHaveAttribute('href', '/games/1');
    const next = screen.getByRole('article', { name: 'Next Cup' });
    expect(within(next).getByText('Upcoming')).toBeInTheDocument();
    expect(within(next).getByText('Individual')).toBeInTheDocument();
    const old = screen.getByRole('article', { name: 'Old Cup' });
    expect(within(old).getByText('Ended')).toBeInTheDocument();
    expect(within(old).getByText('No team size limit')).toBeInTheDocument();
    expect(asked).toEqual(['?count=12&skip=0']);
    expect(screen.queryByRole('navigation', { name: /pagination/i })).not.toBeInTheDocument();
  });

  test('the home page lists the recent games', async () => {
    mockPlatform({ recentGames: GAMES });
    renderApp('/');
    const section = await screen.findByRole('region', { name: 'Recent games' });
    expect(await within(section).findByRole('link', { name: 'Live Cup' })).toHaveAttribute('href', '/games/1');
    expect(within(section).getByText(/^Upcoming · starts/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'All games' })).toHaveAttribute('href', '/games');
  });
});
