import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { HEADING_WAIT_MS, RouteFocus } from '@/app/layout/RouteFocus';

/** A page whose heading shows only after its "data" arrives, as most pages do. */
function SlowPage() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 50);
    return () => clearTimeout(timer);
  }, []);
  return ready ? <h1>Slow page</h1> : <p>Loading…</p>;
}

/** The frame reduced to what RouteFocus needs: an app bar link outside, the main region around the page. */
function Frame() {
  return (
    <>
      <a href="/elsewhere">App bar link</a>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <RouteFocus mainId="main" />
    </>
  );
}

function renderRoutes(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <Frame />,
        children: [
          { path: '/', element: <h1>Home</h1> },
          { path: '/about', element: <h1>About us</h1> },
          { path: '/slow', element: <SlowPage /> },
          { path: '/bare', element: <button type="button">Only a button</button> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  const go = (to: string) => act(() => router.navigate(to));
  return { router, go };
}

const announcer = () => screen.getByTestId('route-announcer');

describe('focus after navigation', () => {
  afterEach(() => jest.useRealTimers());

  it('leaves focus alone on the first load', () => {
    renderRoutes('/');
    expect(screen.getByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(document.body).toHaveFocus();
    expect(announcer()).toHaveTextContent('');
  });

  it('moves focus to the new heading, announces it, and keeps it there on a query change', async () => {
    const { go } = renderRoutes('/');
    screen.getByRole('link', { name: 'App bar link' }).focus();
    await go('/about');
    const heading = screen.getByRole('heading', { name: 'About us' });
    expect(heading).toHaveFocus();
    // Focusable by script only, not a tab stop.
    expect(heading).toHaveAttribute('tabindex', '-1');
    expect(announcer()).toHaveAttribute('aria-live', 'polite');
    expect(announcer()).toHaveTextContent('About us');

    await go('/about?page=2');
    expect(heading).toHaveFocus();
  });

  it('waits for a heading that arrives with the data, holding focus on the main region meanwhile', async () => {
    const { go } = renderRoutes('/');
    await go('/slow');
    expect(screen.getByRole('main')).toHaveFocus();
    const heading = await screen.findByRole('heading', { name: 'Slow page' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(announcer()).toHaveTextContent('Slow page');
  });

  it('does not take focus back once the user has moved on', async () => {
    const { go } = renderRoutes('/');
    await go('/slow');
    const link = screen.getByRole('link', { name: 'App bar link' });
    link.focus();
    await screen.findByRole('heading', { name: 'Slow page' });
    // Still announced: the page changed all the same. RouteFocus sees the heading a moment after it
    // renders (a busy machine made the two steps visibly apart), so wait for the announcement.
    await waitFor(() => expect(announcer()).toHaveTextContent('Slow page'));
    expect(link).toHaveFocus();
  });

  it('leaves focus on the main region of a page with no heading, and announces the document title', async () => {
    jest.useFakeTimers();
    document.title = 'Test::CTF';
    const { go } = renderRoutes('/');
    await go('/bare');
    expect(screen.getByRole('main')).toHaveFocus();
    act(() => jest.advanceTimersByTime(HEADING_WAIT_MS));
    expect(screen.getByRole('main')).toHaveFocus();
    expect(announcer()).toHaveTextContent('Test::CTF');
  });
});
