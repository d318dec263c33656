import { render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Providers } from '@/app/Providers';
import { routes } from '@/app/router';
import { setupStore, type RootState } from '@/app/store';
import type { ClientConfig } from '@/features/info/api';
import { baseApi } from '@/shared/api/baseApi';
import { server } from '../msw';
import { createTestI18n } from './i18n';

export const API = 'http://localhost/api';

export const TEST_CONFIG: ClientConfig = {
  title: 'Test',
  slogan: 'Tested live',
  footerInfo: null,
  customTheme: null,
  apiPublicKey: null,
  logoUrl: null,
  portMapping: 'Default',
  defaultLifetime: 120,
  extensionDuration: 120,
  renewalWindow: 10,
};

/**
 * The calls every page (or the home page) makes: the client config, the profile probe (signed out
 * unless told), the latest posts and the recent games (none unless told).
 */
export function mockPlatform({
  config = {},
  profile,
  latestPosts = [],
  recentGames = [],
}: {
  config?: Partial<ClientConfig>;
  profile?: { userName: string; role: string } & Record<string, unknown>;
  latestPosts?: unknown[];
  recentGames?: unknown[];
} = {}) {
  server.use(
    http.get(`${API}/posts/latest`, () => HttpResponse.json(latestPosts)),
    http.get(`${API}/game/recent`, () => HttpResponse.json(recentGames)),
    http.get(`${API}/config`, () => HttpResponse.json({ ...TEST_CONFIG, ...config })),
    http.get(`${API}/account/profile`, () =>
      profile
        ? HttpResponse.json(profile)
        : HttpResponse.json({ title: 'Please sign in', status: 401 }, { status: 401 }),
    ),
  );
}

interface Options {
  preloadedState?: Partial<RootState>;
  language?: string;
}

function setup({ preloadedState, language }: Options) {
  const store = setupStore(preloadedState);
  // Module-level API state would leak between tests through the shared middleware otherwise.
  store.dispatch(baseApi.util.resetApiState());
  const i18n = createTestI18n(language);
  const wrap = (children: ReactNode) => (
    <I18nextProvider i18n={i18n}>
      <Providers store={store}>{children}</Providers>
    </I18nextProvider>
  );
  return { store, i18n, wrap };
}

/** Any element inside the app's providers (store, theme, confirm dialog, notifications), no router. */
export function renderWithProviders(ui: ReactElement, options: Options = {}) {
  const { store, i18n, wrap } = setup(options);
  return { store, i18n, ...render(wrap(ui)) };
}

/** The whole app (frame, routes) at `path`, with a memory router. */
export function renderApp(path = '/', options: Options = {}) {
  const { store, i18n, wrap } = setup(options);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return { store, i18n, router, ...render(wrap(<RouterProvider router={router} />)) };
}
