import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { API, mockPlatform, renderApp } from '../helpers/render';
import { server } from '../msw';

beforeEach(() => mockPlatform());

describe('routing (spec §2)', () => {
  it('loads a page on demand behind the loading spinner', async () => {
    renderApp('/about');
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'About', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('matches paths case-insensitively', async () => {
    renderApp('/ABOUT');
    expect(await screen.findByRole('heading', { name: 'About', level: 1 })).toBeInTheDocument();
  });

  it('shows the not-found page for unknown paths', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  /** The deepest route the router matched for the current location (`*` is the not-found page). */
  const matchedPath = (router: ReturnType<typeof renderApp>['router']) => router.state.matches.at(-1)?.route.path;

  /**
   * Signed in as an admin, so that no guard stands between the path and its page. The game the
   * pages ask for is not there (404, as the server answers): only the route is under test.
   */
  const signInAsAdmin = () => {
    mockPlatform({ profile: { userName: 'root', role: 'Admin' } });
    const missing = () => HttpResponse.json({ title: 'Game not found', status: 404 }, { status: 404 });
    server.use(http.get(`${API}/game/:id`, missing), http.get(`${API}/edit/games/:id`, missing));
  };

  const expectRouteForAdmin = async (path: string, route: string) => {
    signInAsAdmin();
    const { router } = renderApp(path);
    await waitFor(() => expect(matchedPath(router)).toBe(route));
  };

  it.each([
    ['/games', 'games'],
    ['/games/7', ':id'],
    ['/Games/7/Challenges', ':id/challenges'],
    ['/games/7/scoreboard', ':id/scoreboard'],
    ['/games/7/monitor/cheatinfo', 'cheatinfo'],
    ['/games/7/monitor/Events', 'events'],
    ['/games/7/monitor/submissions', 'submissions'],
    ['/games/7/monitor/traffic', 'traffic'],
  ])('routes %s to its page', expectRouteForAdmin);

  it.each([
    ['/admin/games', 'games'],
    ['/admin/games/7/info', 'info'],
    ['/admin/games/7/notices', 'notices'],
    ['/admin/games/7/review', 'review'],
    ['/admin/games/7/writeups', 'writeups'],
    ['/admin/games/7/challenges', 'challenges'],
    ['/admin/games/7/challenges/4', 'challenges/:chalId'],
    ['/admin/games/7/challenges/4/flags', 'challenges/:chalId/flags'],
    ['/admin/instances', 'instances'],
  ])('routes %s to its page for admins', expectRouteForAdmin);

  it.each(['/admin/users', '/admin/teams', '/admin/logs', '/admin/files', '/admin/settings', '/Admin/Games'])(
    'keeps %s behind the admin guard',
    async (path) => {
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Sign in to continue' })).toBeInTheDocument();
    },
  );

  it('registers /teams', async () => {
    renderApp('/teams');
    expect(await screen.findByRole('heading', { name: 'Teams', level: 1 })).toBeInTheDocument();
  });

  it.each([
    ['/admin', '/admin/games'],
    ['/games/7/monitor', '/games/7/monitor/events'],
  ])('sends %s on to %s', async (from, to) => {
    signInAsAdmin();
    const { router } = renderApp(from);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('does not invent pages inside the areas', async () => {
    renderApp('/account/nothing');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
