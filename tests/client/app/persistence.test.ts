import { compressToUTF16 } from 'lz-string';
import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api as infoApi, selectClientConfig } from '@/features/info/api';
import { sessionApi } from '@/shared/api/session';
import { STORAGE_KEY } from '@/shared/persist/config';
import { colorSchemeChosen, customColorChosen, languageChosen } from '@/shared/preferences/slice';
import { appStarted } from '@/shared/lifecycle';
import { server } from '../msw';
import { isolatePersistence, startPersisted, storedCache } from '../helpers/persistence';
import { TEST_CONFIG } from '../helpers/render';

isolatePersistence();

describe('the local cache', () => {
  it('keeps preferences compressed in localStorage and restores them on the next start', async () => {
    const first = await startPersisted();
    first.store.dispatch(languageChosen('ja-JP'));
    first.store.dispatch(colorSchemeChosen('light'));
    first.store.dispatch(customColorChosen('#3F8CFF'));
    await first.persistence.persistor.flush();

    const raw = localStorage.getItem(STORAGE_KEY) ?? '';
    expect(raw).not.toContain('ja-JP');
    expect(raw).not.toContain('light');
    expect(storedCache().preferences).toMatchObject({
      language: 'ja-JP',
      colorScheme: 'light',
      customColor: '#3f8cff',
    });

    const second = await startPersisted();
    expect(second.store.getState().preferences).toMatchObject({
      language: 'ja-JP',
      colorScheme: 'light',
      customColor: '#3f8cff',
    });
  });

  it('is saved when the page goes away, without waiting for the write timer', async () => {
    const { store } = await startPersisted();
    store.dispatch(colorSchemeChosen('light'));
    expect(storedCache().preferences).toBeUndefined();
    window.dispatchEvent(new Event('pagehide'));
    expect(storedCache().preferences).toMatchObject({ colorScheme: 'light' });
  });

  it('brings back the client config, so the title shows before the API answers', async () => {
    server.use(http.get('http://localhost/api/config', () => HttpResponse.json({ ...TEST_CONFIG, title: 'Cached' })));
    const first = await startPersisted();
    await first.store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate());
    await first.persistence.persistor.flush();
    expect(JSON.stringify(storedCache().api)).toContain('Cached');

    server.use(http.get('http://localhost/api/config', () => new Promise<never>(() => {})));
    const second = await startPersisted();
    expect(selectClientConfig(second.store.getState()).title).toBe('Cached');
  });

  it('is replaced by the current config once the app has started, with one request', async () => {
    server.use(http.get('http://localhost/api/config', () => HttpResponse.json({ ...TEST_CONFIG, title: 'Cached' })));
    const first = await startPersisted();
    await first.store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate());
    await first.persistence.persistor.flush();

    let calls = 0;
    server.use(
      http.get('http://localhost/api/config', () => {
        calls += 1;
        return HttpResponse.json({ ...TEST_CONFIG, title: 'Fresh' });
      }),
    );
    const second = await startPersisted();
    expect(selectClientConfig(second.store.getState()).title).toBe('Cached');
    second.store.dispatch(appStarted());
    await waitFor(() => expect(selectClientConfig(second.store.getState()).title).toBe('Fresh'));
    // Components subscribing afterwards use it; nothing refetches.
    await second.store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate());
    expect(calls).toBe(1);
  });

  it('never stores pending or failed calls', async () => {
    server.use(
      http.get('http://localhost/api/config', () => HttpResponse.json({ title: 'down', status: 503 }, { status: 503 })),
      http.get('http://localhost/api/account/profile', () => new Promise<never>(() => {})),
    );
    const { store, persistence } = await startPersisted();
    await store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate());
    void store.dispatch(sessionApi.endpoints.accountProfile.initiate());
    store.dispatch(colorSchemeChosen('light'));
    await persistence.persistor.flush();
    const text = JSON.stringify(storedCache().api);
    expect(text).not.toMatch(/pending|rejected|"error"/);
    expect(storedCache().api).toEqual({ queries: {} });
  });

  it('checks what it restores: tampered values fall back to the defaults', async () => {
    const slice = (value: unknown) => JSON.stringify(compressToUTF16(JSON.stringify(value)));
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({
        preferences: JSON.parse(
          slice({
            language: '<script>alert(1)</script>',
            colorScheme: 'pink',
            themeProvider: 'Evil',
            customColor: 'red',
          }),
        ),
        _persist: JSON.parse(slice({ version: 1, rehydrated: true })),
      }),
    );
    const { store } = await startPersisted();
    expect(store.getState().preferences).toEqual({
      language: null,
      colorScheme: 'dark',
      themeProvider: 'Managed',
      customColor: null,
    });
  });

  it('drops a cache written by another version', async () => {
    const slice = (value: unknown) => JSON.parse(JSON.stringify(compressToUTF16(JSON.stringify(value)))) as string;
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({
        preferences: slice({ language: 'ko-KR', colorScheme: 'light', themeProvider: 'Default', customColor: null }),
        _persist: slice({ version: 0, rehydrated: true }),
      }),
    );
    const { store } = await startPersisted();
    expect(store.getState().preferences.language).toBeNull();
  });

  it('"clean cache" empties storage, reloads, and nothing writes it back afterwards', async () => {
    const { store, persistence, reload } = await startPersisted();
    store.dispatch(colorSchemeChosen('light'));
    await persistence.persistor.flush();
    expect(localStorage.getItem(STORAGE_KEY)).not.toBeNull();

    store.dispatch(colorSchemeChosen('dark'));
    await persistence.cleanCache();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);

    store.dispatch(colorSchemeChosen('light'));
    window.dispatchEvent(new Event('pagehide'));
    window.dispatchEvent(new Event('beforeunload'));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });
});
