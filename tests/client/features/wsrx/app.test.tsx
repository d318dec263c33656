import { compressToUTF16 } from 'lz-string';
import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupStore } from '@/app/store';
import { api as infoApi } from '@/features/info/api';
import { optionsChanged } from '@/features/wsrx/slice';
import { baseApi } from '@/shared/api/baseApi';
import { DEFAULT_INSTANCE_SETTINGS, useInstanceSettings } from '@/shared/instances/InstanceSettings';
import { useProxyEntry } from '@/shared/instances/ProxyEntrySlot';
import { STORAGE_KEY } from '@/shared/persist/config';
import { server } from '../../msw';
import { isolatePersistence, startPersisted, storedCache } from '../../helpers/persistence';
import { API, renderWithProviders, TEST_CONFIG } from '../../helpers/render';
import { mockDaemon } from './support';

isolatePersistence();

describe('the wsrx options in the local cache', () => {
  it('are kept compressed, without the daemon state, and restored on the next visit', async () => {
    // The change reconnects to the new address: a daemon that is not there.
    mockDaemon('http://192.168.1.20:3307').version = 'network-error';
    const first = await startPersisted();
    first.store.dispatch(optionsChanged({ api: 'http://192.168.1.20:3307', allowLan: true }));
    await waitFor(() => expect(first.store.getState().wsrx.error).toBe('daemon_unavailable'));
    await first.persistence.persistor.flush();

    expect(localStorage.getItem(STORAGE_KEY)).not.toContain('192.168.1.20');
    expect(storedCache().wsrx).toEqual({
      options: { api: 'http://192.168.1.20:3307', name: 'GZ::CTF', allowLan: true },
    });

    const second = await startPersisted();
    expect(second.store.getState().wsrx).toMatchObject({
      options: { api: 'http://192.168.1.20:3307', name: 'GZ::CTF', allowLan: true },
      daemon: 'Invalid',
      error: null,
      instances: [],
    });
  });

  it('are checked when restored: tampered values fall back to the defaults', async () => {
    const slice = (value: unknown) => JSON.parse(JSON.stringify(compressToUTF16(JSON.stringify(value)))) as string;
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({
        wsrx: slice({
          options: { api: 'javascript:alert(1)', name: 42, allowLan: 'yes' },
          daemon: 'Usable',
          instances: [{ remote: 'ws://evil', local: '1.2.3.4:1' }],
        }),
        _persist: slice({ version: 1, rehydrated: true }),
      }),
    );
    const { store } = await startPersisted();
    expect(store.getState().wsrx).toMatchObject({
      options: { api: 'http://127.0.0.1:3307', name: 'GZ::CTF', allowLan: false },
      daemon: 'Invalid',
      instances: [],
    });
  });
});

describe('the app wiring', () => {
  it('names the site after the platform title once the config is known', async () => {
    mockDaemon().version = 'network-error';
    server.use(http.get(`${API}/config`, () => HttpResponse.json({ ...TEST_CONFIG, title: 'Spring Cup' })));
    const store = setupStore();
    store.dispatch(baseApi.util.resetApiState());
    expect(store.getState().wsrx.options.name).toBe('GZ::CTF');
    await store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate());
    expect(store.getState().wsrx.options.name).toBe('Spring Cup::CTF');
  });

  it('fills the proxy entry slot with the wsrx entry and the instance settings from the config', async () => {
    mockDaemon().version = 'network-error';
    server.use(
      http.get(`${API}/config`, () =>
        HttpResponse.json({ ...TEST_CONFIG, portMapping: 'PlatformProxy', renewalWindow: 15, extensionDuration: 60 }),
      ),
    );
    function Panel() {
      const ProxyEntry = useProxyEntry();
      const settings = useInstanceSettings();
      return (
        <>
          <output data-testid="settings">{JSON.stringify(settings)}</output>
          {ProxyEntry && <ProxyEntry remote="ws://localhost/api/proxy/abc" label="Baby heap" />}
        </>
      );
    }
    const { store } = renderWithProviders(<Panel />);
    expect(await screen.findByRole('textbox', { name: 'WebSocket URL' })).toHaveValue('ws://localhost/api/proxy/abc');
    expect(JSON.parse(screen.getByTestId('settings').textContent ?? '')).toEqual(DEFAULT_INSTANCE_SETTINGS);
    await act(() => store.dispatch(infoApi.endpoints.infoGetClientConfig.initiate()));
    await waitFor(() =>
      expect(JSON.parse(screen.getByTestId('settings').textContent ?? '')).toEqual({
        portMapping: 'PlatformProxy',
        renewalWindow: 15,
        extensionDuration: 60,
      }),
    );
  });
});
