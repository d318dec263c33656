import { screen, waitFor } from '@testing-library/react';
import { mockPlatform, renderApp } from '../helpers/render';

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

  it.each([
    '/games',
    '/games/7',
    '/Games/7/Challenges',
    '/games/7/scoreboard',
    '/games/7/monitor/cheatinfo',
    '/games/7/monitor/Events',
    '/games/7/monitor/submissions',
    '/games/7/monitor/traffic',
  ])('registers %s (a placeholder until its page lands)', async (path) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Coming soon' })).toBeInTheDocument();
  });

  it.each([
    '/admin/games',
    '/admin/games/7/info',
    '/admin/games/7/notices',
    '/admin/games/7/review',
    '/admin/games/7/writeups',
    '/admin/games/7/challenges',
    '/admin/games/7/challenges/4',
    '/admin/games/7/challenges/4/flags',
    '/admin/instances',
  ])('registers %s for admins (a placeholder until its page lands)', async (path) => {
    mockPlatform({ profile: { userName: 'root', role: 'Admin' } });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Coming soon' })).toBeInTheDocument();
  });

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
    mockPlatform({ profile: { userName: 'root', role: 'Admin' } });
    const { router } = renderApp(from);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('does not invent pages inside the areas', async () => {
    renderApp('/account/nothing');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
