import { setupListeners } from '@reduxjs/toolkit/query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API, mockPlatform, renderApp } from '../../helpers/render';

jest.setTimeout(20_000);

describe('the admin guard', () => {
  it('asks signed-out visitors to sign in and come back', async () => {
    mockPlatform();
    renderApp('/admin/users?x=1');
    expect(await screen.findByRole('heading', { name: 'Sign in to continue' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/account/login?from=${encodeURIComponent('/admin/users?x=1')}`,
    );
  });

  it('tells other roles the area is for admins, and asks the admin API nothing', async () => {
    mockPlatform({ profile: { userName: 'mon', role: 'Monitor' } });
    const calls: string[] = [];
    server.use(
      http.all(`${API}/admin/*`, ({ request }) => {
        calls.push(request.url);
        return HttpResponse.json({ title: 'forbidden', status: 403 }, { status: 403 });
      }),
    );
    renderApp('/admin/settings');
    expect(await screen.findByRole('heading', { name: 'Administrators only' })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('lets admins in, with a tab per section', async () => {
    mockPlatform({ profile: { userName: 'root', role: 'Admin' } });
    server.use(http.get(`${API}/admin/instances`, () => HttpResponse.json({ data: [], length: 0, total: 0 })));
    renderApp('/admin/instances');
    const tabs = await screen.findByRole('navigation', { name: 'Admin sections' }, { timeout: 5000 });
    expect(tabs).toBeInTheDocument();
    const names = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(names).toEqual(['Games', 'Teams', 'Users', 'Instances', 'Logs', 'Files', 'Settings']);
    expect(screen.getByRole('tab', { name: 'Instances' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('href', '/admin/users');
  });

  it('keeps an admin page and what was typed in it when the session re-check on focus fails', async () => {
    mockPlatform({ profile: { userName: 'root', role: 'Admin' } });
    server.use(http.get(`${API}/admin/users`, () => HttpResponse.json({ data: [], length: 0, total: 0 })));
    const { store } = renderApp('/admin/users');
    const stop = setupListeners(store.dispatch);
    try {
      const search = await screen.findByRole('searchbox', { name: 'Search users' }, { timeout: 5000 });
      await userEvent.type(search, 'alice');

      // The tab comes back while the server restarts: every probe answers 503.
      let probes = 0;
      server.use(
        http.get(`${API}/account/profile`, () => {
          probes += 1;
          return HttpResponse.json({ title: 'Service unavailable', status: 503 }, { status: 503 });
        }),
      );
      window.dispatchEvent(new Event('focus'));
      await waitFor(() => expect(probes).toBe(3), { timeout: 5000 });
      await waitFor(() =>
        expect(
          Object.values(store.getState().api.queries).find((entry) => entry?.endpointName === 'accountSession')?.status,
        ).toBe('rejected'),
      );
      expect(screen.queryByRole('heading', { name: 'Sign in to continue' })).not.toBeInTheDocument();
      expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('alice');
    } finally {
      stop();
    }
  });
});
