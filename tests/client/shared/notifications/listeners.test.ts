import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { http, HttpResponse } from 'msw';
import { baseQuery } from '@/shared/api/baseQuery';
import { addNotificationListeners } from '@/shared/notifications/listeners';
import { notificationsSlice } from '@/shared/notifications/slice';
import { initialPreferences, preferencesSlice } from '@/shared/preferences/slice';
import { createTestI18n } from '../../helpers/i18n';
import { server } from '../../msw';
import { translateText } from '@/shared/text/textRef';

const URL = 'http://localhost/api/thing';

function setup() {
  const api = createApi({
    reducerPath: 'api',
    baseQuery,
    endpoints: (build) => ({
      read: build.query<unknown, void>({ query: () => '/api/thing', extraOptions: { maxRetries: 0 } }),
      probe: build.query<unknown, void>({
        query: () => '/api/thing',
        extraOptions: { maxRetries: 0, quiet: [401, 403, 501] },
      }),
      config: build.query<unknown, void>({ query: () => '/api/thing', extraOptions: { maxRetries: 0, quiet: true } }),
      write: build.mutation<unknown, void>({ query: () => ({ url: '/api/thing', method: 'POST' }) }),
    }),
  });
  const listener = createListenerMiddleware();
  addNotificationListeners(listener.startListening);
  const store = configureStore({
    reducer: {
      api: api.reducer,
      notifications: notificationsSlice.reducer,
      preferences: preferencesSlice.reducer,
    },
    preloadedState: { preferences: initialPreferences },
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(api.middleware),
  });
  const t = createTestI18n().t;
  const shown = () =>
    store.getState().notifications.queue.map((notification) => ({
      variant: notification.variant,
      title: translateText(t, notification.title),
      message: translateText(t, notification.message),
    }));
  return { api, store, shown };
}

const answer = (status: number, body: unknown) =>
  server.use(http.all(URL, () => HttpResponse.json(body as object, { status })));

describe('the API failure notifications of spec §8', () => {
  it('announce HTTP 429 in red, titled "try later", with the message', async () => {
    answer(429, { title: 'Too many submissions, slow down', status: 429 });
    const { api, store, shown } = setup();
    await store.dispatch(api.endpoints.read.initiate());
    expect(shown()).toEqual([
      { variant: 'error', title: 'Please try again later', message: 'Too many submissions, slow down' },
    ]);
  });

  it('announce any other failure in red, titled "error encountered", with the response title', async () => {
    answer(400, { title: 'The team name is taken', status: 400 });
    const { api, store, shown } = setup();
    await store.dispatch(api.endpoints.write.initiate());
    expect(shown()).toEqual([{ variant: 'error', title: 'Error encountered', message: 'The team name is taken' }]);
  });

  it('take the message or cause when there is no title', async () => {
    answer(500, { message: 'database unavailable' });
    const { api, store, shown } = setup();
    await store.dispatch(api.endpoints.write.initiate());
    answer(500, { cause: 'disk full' });
    await store.dispatch(api.endpoints.write.initiate());
    expect(shown().map((notification) => notification.message)).toEqual(['database unavailable', 'disk full']);
  });

  it('fall back to "unknown error"', async () => {
    server.use(http.all(URL, () => new HttpResponse(null, { status: 500 })));
    const { api, store, shown } = setup();
    await store.dispatch(api.endpoints.write.initiate());
    expect(shown()).toEqual([{ variant: 'error', title: 'Error encountered', message: 'Unknown error' }]);
  });

  it('speak the language of the reader', async () => {
    answer(500, {});
    const { api, store } = setup();
    await store.dispatch(api.endpoints.write.initiate());
    const [notification] = store.getState().notifications.queue;
    const { t } = createTestI18n('ja-JP');
    expect(translateText(t, notification!.title)).toBe('エラーが発生しました');
    expect(translateText(t, notification!.message)).toBe('不明なエラー');
  });

  it('stay quiet for the statuses an endpoint expects (the profile probe when signed out)', async () => {
    const { api, store, shown } = setup();
    for (const status of [401, 403, 501]) {
      answer(status, { title: 'not signed in', status });
      await store.dispatch(api.endpoints.probe.initiate(undefined, { forceRefetch: true }));
    }
    expect(shown()).toEqual([]);
    answer(500, { title: 'server broke', status: 500 });
    await store.dispatch(api.endpoints.probe.initiate(undefined, { forceRefetch: true }));
    expect(shown()).toEqual([{ variant: 'error', title: 'Error encountered', message: 'server broke' }]);
  });

  it('stay quiet for an endpoint that is quiet altogether (the client config)', async () => {
    answer(503, { title: 'down', status: 503 });
    const { api, store, shown } = setup();
    await store.dispatch(api.endpoints.config.initiate());
    server.use(http.all(URL, () => HttpResponse.error()));
    await store.dispatch(api.endpoints.config.initiate(undefined, { forceRefetch: true }));
    expect(shown()).toEqual([]);
  });

  it('say nothing for a query skipped because the same one was running', async () => {
    answer(500, { title: 'once', status: 500 });
    const { api, store, shown } = setup();
    await Promise.all([store.dispatch(api.endpoints.read.initiate()), store.dispatch(api.endpoints.read.initiate())]);
    expect(shown()).toHaveLength(1);
  });

  it('say nothing when a call succeeds', async () => {
    answer(200, { ok: true });
    const { api, store, shown } = setup();
    await store.dispatch(api.endpoints.read.initiate());
    await store.dispatch(api.endpoints.write.initiate());
    expect(shown()).toEqual([]);
  });
});
