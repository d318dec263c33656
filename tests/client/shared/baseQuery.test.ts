import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { http, HttpResponse } from 'msw';
import { baseQuery, MAX_RETRIES, REQUEST_TIMEOUT_MS, retryDelay, shouldRetry } from '@/shared/api/baseQuery';
import { preferencesSlice } from '@/shared/preferences/slice';
import { server } from '../msw';

function setup() {
  const api = createApi({
    reducerPath: 'api',
    baseQuery,
    endpoints: (build) => ({
      read: build.query<unknown, string>({ query: (url) => url }),
      readOnce: build.query<unknown, string>({ query: (url) => url, extraOptions: { maxRetries: 0 } }),
      write: build.mutation<unknown, string>({ query: (url) => ({ url, method: 'POST' }) }),
      replace: build.mutation<unknown, string>({ query: (url) => ({ url, method: 'PUT' }) }),
    }),
  });
  const store = configureStore({
    reducer: { api: api.reducer, preferences: preferencesSlice.reducer },
    preloadedState: { preferences: { language: 'ja-JP' as const } },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  return { api, store };
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
