import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../msw';
import { API, mockPlatform, renderApp } from '../helpers/render';

const mainNav = () => screen.getAllByRole('navigation', { name: 'Main navigation' })[0]!;
const navLabels = () =>
  within(mainNav())
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the frame', () => {
  it('shows the configured title with ::CTF in the app bar and the tab', async () => {
    mockPlatform({ config: { title: 'Hack Week', slogan: 'Break things' } });
    renderApp('/');
    await waitFor(() => expect(screen.getByTestId('app-title')).toHaveTextContent('Hack Week::CTF'));
    expect(document.title).toBe('Hack Week::CTF');
    expect(await screen.findByTestId('platform-title')).toHaveTextContent('Hack Week::CTF');
    expect(screen.getByText('Break things')).toBeInTheDocument();
  });

  it('offers Home, Games, Teams, Posts, About and a sign-in link when signed out', async () => {
    mockPlatform();
    const { store } = renderApp('/');
    expect(await screen.findAllByRole('link', { name: 'Sign in' })).not.toHaveLength(0);
    expect(navLabels()).toEqual(['Home', 'Games', 'Teams', 'Posts', 'About']);
    for (const link of screen.getAllByRole('link', { name: 'Sign in' })) {
      expect(link).toHaveAttribute('href', '/account/login');
    }
    // The probe's 401 means "signed out", not an error worth a notification.
    expect(store.getState().notifications.queue).toEqual([]);
  });

  it('adds Admin for admins, and a profile link instead of sign-in', async () => {
    mockPlatform({ profile: { userName: 'root', role: 'Admin' } });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Profile: root' })).toHaveAttribute('href', '/account/profile');
    expect(navLabels()).toEqual(['Home', 'Games', 'Teams', 'Posts', 'About', 'Admin']);
    expect(screen.queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('shows no Admin to other roles', async () => {
    mockPlatform({ profile: { userName: 'alice', role: 'Monitor' } });
    renderApp('/');
    await screen.findByRole('link', { name: 'Profile: alice' });
    expect(navLabels()).not.toContain('Admin');
  });

  it('treats a server without accounts (501) as signed out, quietly', async () => {
    mockPlatform();
    server.use(
      http.get(`${API}/account/profile`, () =>
        HttpResponse.json({ title: 'Not implemented', status: 501 }, { status: 501 }),
      ),
    );
    const { store } = renderApp('/');
    expect(await screen.findAllByRole('link', { name: 'Sign in' })).not.toHaveLength(0);
    expect(store.getState().notifications.queue).toEqual([]);
  });

  it('renders the footer markdown, sanitised', async () => {
    mockPlatform({
      config: {
        footerInfo:
          '**Hosted by** [Club](https://club.example) <script>window.pwned = 1</script><img src=x onerror="window.pwned=2">[x](javascript:alert(1))',
      },
    });
    renderApp('/');
    const footer = await screen.findByTestId('footer-info');
    expect(within(footer).getByText('Hosted by').tagName).toBe('STRONG');
    expect(within(footer).getByRole('link', { name: 'Club' })).toHaveAttribute('href', 'https://club.example');
    expect(footer.innerHTML).not.toMatch(/script|onerror|javascript:/i);
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });

  it('has labelled language, colour-scheme and appearance controls', async () => {
    mockPlatform();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Language' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Switch to the light colour scheme' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Appearance settings' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute('href', '#main-content');
  });

  it('opens the navigation in a drawer from the menu button and closes it on navigation', async () => {
    mockPlatform();
    const { router } = renderApp('/');
    const user = userEvent.setup();
    const menuButton = await screen.findByRole('button', { name: 'Open navigation menu' });
    await user.click(menuButton);
    // The drawer is modal: while it is open, it is the only navigation assistive technology sees.
    const drawer = await waitFor(() => {
      const [only, ...others] = screen.getAllByRole('navigation', { name: 'Main navigation' });
      expect(others).toHaveLength(0);
      expect(within(only!).getByText('Test::CTF')).toBeInTheDocument();
      return only!;
    });
    await user.click(within(drawer).getByRole('link', { name: 'Teams' }));
    expect(router.state.location.pathname).toBe('/teams');
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  });

  it('marks the current page in the navigation', async () => {
    mockPlatform();
    renderApp('/about');
    await screen.findByRole('heading', { name: 'About', level: 1 });
    expect(within(mainNav()).getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
    expect(within(mainNav()).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('has home-page slots for the latest posts and the recent games', async () => {
    mockPlatform();
    renderApp('/');
    expect(await screen.findByRole('region', { name: 'Latest posts' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Recent games' })).toBeInTheDocument();
  });
});

describe('a page that fails to render', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => consoleError.mockRestore());

  it('shows the error screen (the malformed config the e2e test also uses)', async () => {
    server.use(http.get(`${API}/config`, () => HttpResponse.json({ title: { x: 1 }, slogan: 's' })));
    mockPlatformProfileOnly();
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByTestId('error-message')).toHaveTextContent(/Objects are not valid as a React child/);
    expect(screen.getByRole('button', { name: 'Clean cache' })).toBeInTheDocument();
  });

  it('keeps the frame when only the page breaks, and recovers on navigation', async () => {
    mockPlatform();
    const { router } = renderApp('/');
    await screen.findByTestId('platform-title');
    await act(async () => {
      await router.navigate('/about');
    });
    expect(await screen.findByRole('heading', { name: 'About', level: 1 })).toBeInTheDocument();
  });
});

function mockPlatformProfileOnly() {
  server.use(
    http.get(`${API}/account/profile`, () =>
      HttpResponse.json({ title: 'Please sign in', status: 401 }, { status: 401 }),
    ),
  );
}
