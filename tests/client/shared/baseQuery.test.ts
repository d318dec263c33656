import { configureStore, type Middleware, type UnknownAction } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { http, HttpResponse } from 'msw';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { baseQuery, isQuiet, MAX_RETRIES, REQUEST_TIMEOUT_MS, retryDelay, shouldRetry } from '@/shared/api/baseQuery';
import type { Language } from '@/shared/i18n/languages';
import { initialPreferences, preferencesSlice } from '@/shared/preferences/slice';
import { server } from '../msw';

function setup(language: Language | null = 'ja-JP') {
  const api = createApi({
    reducerPath: 'api',
    baseQuery,
    endpoints: (build) => ({
      read: build.query<unknown, string>({ query: (url) => url }),
      readOnce: build.query<unknown, string>({ query: (url) => url, extraOptions: { maxRetries: 0 } }),
      write: build.mutation<unknown, string>({ query: (url) => ({ url, method: 'POST' }) }),
      replace: build.mutation<unknown, string>({ query: (url) => ({ url, method: 'PUT' }) }),
      upload: build.mutation<unknown, FormData>({ query: (body) => ({ url: '/api/upload', method: 'PUT', body }) }),
      send: build.mutation<unknown, object>({ query: (body) => ({ url: '/api/upload', method: 'POST', body }) }),
      probe: build.query<unknown, string>({ query: (url) => url, extraOptions: { quiet: [401] } }),
    }),
  });
  const actions: Array<UnknownAction & { meta?: { baseQueryMeta?: { quiet?: boolean } } }> = [];
  const record: Middleware = () => (next) => (action) => {
    actions.push(action as UnknownAction);
    return next(action);
  };
  const store = configureStore({
    reducer: { api: api.reducer, preferences: preferencesSlice.reducer },
    preloadedState: { preferences: { ...initialPreferences, language } },
    middleware: (getDefault) => getDefault().concat(api.middleware, record),
  });
  return { api, store, actions };
}

function countingHandler(method: 'get' | 'post' | 'put', status: number) {
  const calls: Request[] = [];
  server.use(
    http[method]('http://localhost/api/thing', ({ request }) => {
      calls.push(request);
      return HttpResponse.json({ title: 'nope', status }, { status });
    }),
  );
  return calls;
}

describe('the retry policy of spec §7', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('waits 0.3 s × 2^(n−1) before retry n', () => {
    expect([1, 2, 3].map(retryDelay)).toEqual([300, 600, 1200]);
  });

  it.each([408, 413, 429, 500, 502, 503, 504])('retries a GET answered %i twice', async (status) => {
    const calls = countingHandler('get', status);
    const { api, store } = setup();
    const pending = store.dispatch(api.endpoints.read.initiate('/api/thing'));
    await jest.advanceTimersByTimeAsync(300 + 600 + 100);
    const result = await pending;
    expect(calls).toHaveLength(1 + MAX_RETRIES);
    expect(result.error).toMatchObject({ status });
  });

  it('does not retry statuses outside the list', async () => {
    const calls = countingHandler('get', 404);
    const { api, store } = setup();
    const result = await store.dispatch(api.endpoints.read.initiate('/api/thing'));
    expect(calls).toHaveLength(1);
    expect(result.error).toMatchObject({ status: 404 });
  });

  it('does not retry POST, which is not idempotent', async () => {
    const calls = countingHandler('post', 503);
    const { api, store } = setup();
    await store.dispatch(api.endpoints.write.initiate('/api/thing'));
    expect(calls).toHaveLength(1);
  });

  it('retries PUT', async () => {
    const calls = countingHandler('put', 503);
    const { api, store } = setup();
    const pending = store.dispatch(api.endpoints.replace.initiate('/api/thing'));
    await jest.advanceTimersByTimeAsync(1000);
    await pending;
    expect(calls).toHaveLength(3);
  });

  it('lets an endpoint turn retries off, as the client config query does', async () => {
    const calls = countingHandler('get', 503);
    const { api, store } = setup();
    await store.dispatch(api.endpoints.readOnce.initiate('/api/thing'));
    expect(calls).toHaveLength(1);
  });

  it('lists exactly the methods the spec names', () => {
    const error = { status: 500, data: null };
    expect(['GET', 'PUT', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'].every((method) => shouldRetry(method, error))).toBe(
      true,
    );
    expect(['POST', 'PATCH'].some((method) => shouldRetry(method, error))).toBe(false);
  });
});

describe('every request', () => {
  it('carries the chosen language as Accept-Language', async () => {
    const calls = countingHandler('get', 404);
    const { api, store } = setup();
    await store.dispatch(api.endpoints.read.initiate('/api/thing'));
    expect(calls[0]?.headers.get('accept-language')).toBe('ja-JP');
  });

  it('says en-US before any language was chosen', async () => {
    const calls = countingHandler('get', 404);
    const { api, store } = setup(null);
    await store.dispatch(api.endpoints.read.initiate('/api/thing'));
    expect(calls[0]?.headers.get('accept-language')).toBe('en-US');
  });

  it('gives up after the 10 s timeout', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(10_000);
    server.use(http.get('http://localhost/api/slow', () => new Promise<never>(() => {})));
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const { api, store } = setup();
    const pending = store.dispatch(api.endpoints.read.initiate('/api/slow'));
    await jest.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 10);
    const result = await pending;
    jest.useRealTimers();
    expect(result.error).toMatchObject({ status: 'TIMEOUT_ERROR' });
  });
});

describe('request bodies', () => {
  function capture() {
    const seen: Array<{ contentType: string | null; text: string }> = [];
    const record = async ({ request }: { request: Request }) => {
      seen.push({ contentType: request.headers.get('content-type'), text: await request.text() });
      return HttpResponse.json({});
    };
    server.use(http.put('http://localhost/api/upload', record), http.post('http://localhost/api/upload', record));
    return seen;
  }

  it('sends FormData as multipart, with the boundary the browser picks', async () => {
    const seen = capture();
    const { api, store } = setup();
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    await store.dispatch(api.endpoints.upload.initiate(form));
    expect(seen[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]?.text).toContain('filename="hello.txt"');
  });

  it('sends plain objects as JSON', async () => {
    const seen = capture();
    const { api, store } = setup();
    await store.dispatch(api.endpoints.send.initiate({ name: 'team' }));
    expect(seen[0]?.contentType).toBe('application/json');
    expect(JSON.parse(seen[0]?.text ?? '')).toEqual({ name: 'team' });
  });
});

describe('quiet endpoints', () => {
  it('mark the failures they expect, and only those', async () => {
    const { api, store, actions } = setup();
    server.use(
      http.get('http://localhost/api/me', () => HttpResponse.json({ title: 'x', status: 401 }, { status: 401 })),
      http.get('http://localhost/api/other', () => HttpResponse.json({ title: 'x', status: 404 }, { status: 404 })),
    );
    await store.dispatch(api.endpoints.probe.initiate('/api/me'));
    await store.dispatch(api.endpoints.probe.initiate('/api/other'));
    const rejected = actions.filter((action) => action.type.endsWith('/rejected'));
    expect(rejected.map((action) => action.meta?.baseQueryMeta?.quiet)).toEqual([true, undefined]);
  });

  it('match statuses by rule', () => {
    expect(isQuiet(true, 500)).toBe(true);
    expect(isQuiet([401, 403], 401)).toBe(true);
    expect(isQuiet([401, 403], 500)).toBe(false);
    expect(isQuiet(['FETCH_ERROR'], 'FETCH_ERROR')).toBe(true);
    expect(isQuiet(undefined, 401)).toBe(false);
    // All but the listed ones: a form that shows its failures, but not a rate limit.
    expect(isQuiet({ except: [429] }, 400)).toBe(true);
    expect(isQuiet({ except: [429] }, 'FETCH_ERROR')).toBe(true);
    expect(isQuiet({ except: [429] }, 429)).toBe(false);
  });
});

describe('live data', () => {
  it('refreshes every 10 000 ms', () => {
    expect(REFRESH_INTERVAL_MS).toBe(10_000);
  });
});
