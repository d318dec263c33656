import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { addWsrxListeners, CONNECT_DEBOUNCE_MS, POLL_INTERVAL_MS } from '@/features/wsrx/listeners';
import {
  connectRequested,
  daemonNamed,
  initialWsrxState,
  mappingReleased,
  mappingRequested,
  optionsChanged,
  wsrxSlice,
  type WsrxState,
} from '@/features/wsrx/slice';
import { appStarted } from '@/shared/lifecycle';
import { notificationsSlice } from '@/shared/notifications/slice';
import { translateText } from '@/shared/text/textRef';
import { createTestI18n } from '../../helpers/i18n';
import { DAEMON, mockDaemon } from './support';

const REMOTE = 'wss://ctf.example/api/proxy/7d0b3c5e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const listeners: Array<ReturnType<typeof createListenerMiddleware>> = [];

/** A store with only what the wsrx listeners touch, and its own listener middleware. */
function setup(wsrx: Partial<WsrxState> = {}) {
  const listener = createListenerMiddleware();
  listeners.push(listener);
  const store = configureStore({
    reducer: { wsrx: wsrxSlice.reducer, notifications: notificationsSlice.reducer },
    preloadedState: { wsrx: { ...initialWsrxState, ...wsrx } },
    middleware: (getDefault) => getDefault().prepend(listener.middleware),
  });
  addWsrxListeners(listener.startListening.withTypes<ReturnType<typeof store.getState>, typeof store.dispatch>());
  const t = createTestI18n().t;
  return {
    store,
    state: () => store.getState().wsrx,
    notifications: () =>
      store.getState().notifications.queue.map(({ id, variant, title, message }) => ({
        id,
        variant,
        title: translateText(t, title),
        message: translateText(t, message),
      })),
  };
}

/** Lets the pending daemon calls answer, and moves the clock on by `ms`. */
const advance = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  // Stops every polling loop the test started.
  listeners.splice(0).forEach((listener) => listener.clearListeners());
  jest.useRealTimers();
});

describe('connecting to the wsrx daemon (spec §4, reference §7.5)', () => {
  it('is Usable when GET /connect answers 202, and reads the pool then', async () => {
    const daemon = mockDaemon();
    daemon.pool = [{ label: 'old', remote: REMOTE, local: '127.0.0.1:40000' }];
    const { store, state, notifications } = setup();
    store.dispatch(connectRequested());
    expect(state().connecting).toBe(true);
    await advance();
    expect(daemon.calls).toEqual(['GET /version', 'GET /connect', 'GET /pool']);
    expect(state()).toMatchObject({ daemon: 'Usable', connecting: false, error: null, poolSynced: true });
    expect(state().instances).toEqual(daemon.pool);
    expect(notifications()).toEqual([]);
  });

  it('is Pending when GET /connect answers 201, without reading the pool', async () => {
    const daemon = mockDaemon();
    daemon.connect = 201;
    const { store, state } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(daemon.calls).toEqual(['GET /version', 'GET /connect']);
    expect(state().daemon).toBe('Pending');
  });

  it.each([200, 204, 403, 500, 'network-error'] as const)(
    'asks to be listed when GET /connect answers %s, then looks again',
    async (status) => {
      const daemon = mockDaemon();
      daemon.connect = status;
      daemon.connectAfterRegister = 201;
      const { store, state } = setup({ options: { ...initialWsrxState.options, name: 'Spring Cup::CTF' } });
      store.dispatch(connectRequested());
      await advance();
      expect(daemon.calls).toEqual(['GET /version', 'GET /connect', 'POST /connect', 'GET /connect']);
      expect(daemon.bodies).toEqual([
        {
          call: 'POST /connect',
          body: { name: 'Spring Cup::CTF', features: ['basic', 'pingfall'], host: 'IN_HEADER', state: 'pending' },
        },
      ]);
      expect(state().daemon).toBe('Pending');
    },
  );

  it('is Invalid with a daemon error when the site is still unknown after asking', async () => {
    const daemon = mockDaemon();
    daemon.connect = 200;
    const { store, state, notifications } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(state()).toMatchObject({ daemon: 'Invalid', error: 'daemon_error', connecting: false });
    expect(notifications()).toEqual([
      { id: 'wsrx-daemon-error', variant: 'error', title: 'wsrx error', message: 'wsrx refused the request.' },
    ]);
  });

  it('passes on what the daemon said when it refuses the listing', async () => {
    const daemon = mockDaemon();
    daemon.connect = 200;
    daemon.registerStatus = 400;
    daemon.poolErrorText = 'scope rejected by user';
    const { store, notifications } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(notifications()).toEqual([
      { id: 'wsrx-daemon-error', variant: 'error', title: 'wsrx error', message: 'scope rejected by user' },
    ]);
  });

  it.each(['0.3.9', '0.3', 'v0.1.0', 'not a version'])(
    'reports a version mismatch in orange for version %s, and goes no further',
    async (version) => {
      const daemon = mockDaemon();
      daemon.version = version;
      const { store, state, notifications } = setup();
      store.dispatch(connectRequested());
      await advance();
      expect(daemon.calls).toEqual(['GET /version']);
      expect(state()).toMatchObject({ daemon: 'Invalid', error: 'daemon_version_mismatch' });
      expect(notifications()).toEqual([
        {
          id: 'wsrx-version-mismatch',
          variant: 'warning',
          title: 'wsrx is out of date',
          message: 'This platform needs wsrx 0.4 or newer. Please update it.',
        },
      ]);
    },
  );

  it('reports a version mismatch when GET /version is missing (404: too old)', async () => {
    const daemon = mockDaemon();
    daemon.version = 404;
    const { store, state, notifications } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(state().error).toBe('daemon_version_mismatch');
    expect(notifications().map((notification) => notification.id)).toEqual(['wsrx-version-mismatch']);
  });

  it.each(['0.4', '0.4.0', '0.10.2', 'v1.0.0'])('accepts version %s (compared as numbers)', async (version) => {
    const daemon = mockDaemon();
    daemon.version = version;
    const { store, state } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(state().daemon).toBe('Usable');
  });

  it('reports a daemon that cannot be reached in red when the user asked to connect', async () => {
    const daemon = mockDaemon();
    daemon.version = 'network-error';
    const { store, state, notifications } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(state()).toMatchObject({ daemon: 'Invalid', error: 'daemon_unavailable' });
    expect(notifications()).toEqual([
      {
        id: 'wsrx-daemon-offline',
        variant: 'error',
        title: 'wsrx is not reachable',
        message:
          'Could not reach the wsrx app. Check that it is running and that the address in the wsrx settings is right.',
      },
    ]);
  });

  it('connects silently at start-up: a daemon that is not running is no news', async () => {
    const daemon = mockDaemon();
    daemon.version = 'network-error';
    const { store, state, notifications } = setup();
    store.dispatch(appStarted());
    await advance();
    expect(daemon.calls).toEqual(['GET /version']);
    expect(state()).toMatchObject({ daemon: 'Invalid', error: 'daemon_unavailable' });
    expect(notifications()).toEqual([]);
    // Nothing polls a daemon that is not there.
    await advance(POLL_INTERVAL_MS * 3);
    expect(daemon.calls).toEqual(['GET /version']);
  });

  it('still reports an outdated daemon found at start-up', async () => {
    const daemon = mockDaemon();
    daemon.version = '0.2.0';
    const { store, notifications } = setup();
    store.dispatch(appStarted());
    await advance();
    expect(notifications().map((notification) => notification.id)).toEqual(['wsrx-version-mismatch']);
  });
});

describe('polling the daemon', () => {
  it('asks GET /connect again every 3 s', async () => {
    const daemon = mockDaemon();
    daemon.connect = 201;
    const { store } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(daemon.count('GET /connect')).toBe(1);
    await advance(POLL_INTERVAL_MS - 1);
    expect(daemon.count('GET /connect')).toBe(1);
    await advance(1);
    expect(daemon.count('GET /connect')).toBe(2);
    await advance(POLL_INTERVAL_MS * 2);
    expect(daemon.count('GET /connect')).toBe(4);
  });

  it('follows the daemon from Pending to Usable once the site is approved, and reads the pool then', async () => {
    const daemon = mockDaemon();
    daemon.connect = 201;
    const { store, state } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(state().daemon).toBe('Pending');
    daemon.connect = 202;
    await advance(POLL_INTERVAL_MS);
    expect(state()).toMatchObject({ daemon: 'Usable', poolSynced: true });
    expect(daemon.calls.at(-1)).toBe('GET /pool');
  });

  it('re-reads the pool on every 5th tick while Usable', async () => {
    const daemon = mockDaemon();
    const { store, state } = setup();
    store.dispatch(connectRequested());
    await advance();
    expect(daemon.count('GET /pool')).toBe(1);
    await advance(POLL_INTERVAL_MS * 4);
    expect(daemon.count('GET /connect')).toBe(5);
    expect(daemon.count('GET /pool')).toBe(1);
    daemon.pool = [{ label: 'web', remote: REMOTE, local: '127.0.0.1:40001', latency: 12 }];
    await advance(POLL_INTERVAL_MS);
    expect(daemon.count('GET /pool')).toBe(2);
    expect(state().instances).toEqual(daemon.pool);
    await advance(POLL_INTERVAL_MS * 5);
    expect(daemon.count('GET /pool')).toBe(3);
  });

  it('does not read the pool while Pending', async () => {
    const daemon = mockDaemon();
    daemon.connect = 201;
    const { store } = setup();
    store.dispatch(connectRequested());
    await advance(POLL_INTERVAL_MS * 10);
    expect(daemon.count('GET /pool')).toBe(0);
  });

  it('stops once the daemon is Invalid, and tells the user it went offline', async () => {
    const daemon = mockDaemon();
    const { store, state, notifications } = setup();
    store.dispatch(connectRequested());
    await advance();
    daemon.connect = 'network-error';
    await advance(POLL_INTERVAL_MS);
    expect(state()).toMatchObject({ daemon: 'Invalid', instances: [], poolSynced: false });
    const calls = daemon.calls.length;
    await advance(POLL_INTERVAL_MS * 10);
    expect(daemon.calls.length).toBe(calls);
    expect(notifications()).toEqual([
      {
        id: 'wsrx-daemon-offline',
        variant: 'error',
        title: 'wsrx went offline',
        message: 'Instances can no longer be reached through local ports until wsrx is running again.',
      },
    ]);
  });

  it('says the daemon went offline on a fall from Pending too', async () => {
    const daemon = mockDaemon();
    daemon.connect = 201;
    const { store, notifications } = setup();
    store.dispatch(connectRequested());
    await advance();
    daemon.connect = 500;
    await advance(POLL_INTERVAL_MS);
    expect(notifications().map((notification) => notification.id)).toEqual(['wsrx-daemon-offline']);
  });

  it('says nothing of going offline when the daemon was never there', async () => {
    const daemon = mockDaemon();
    daemon.connect = 500;
    daemon.registerStatus = 'network-error';
    const { store, notifications } = setup();
    store.dispatch(appStarted());
    await advance(POLL_INTERVAL_MS * 3);
    expect(store.getState().wsrx.daemon).toBe('Invalid');
    expect(notifications()).toEqual([]);
  });

  it('keeps one loop: connecting again replaces the running one', async () => {
    const daemon = mockDaemon();
    daemon.connect = 201;
    const { store } = setup();
    store.dispatch(connectRequested());
    await advance(POLL_INTERVAL_MS / 2);
    store.dispatch(connectRequested());
    await advance();
    const before = daemon.count('GET /connect');
    await advance(POLL_INTERVAL_MS);
    expect(daemon.count('GET /connect')).toBe(before + 1);
  });
});

describe('changing the options', () => {
  it('connects 100 ms after the last change, to the new address', async () => {
    const other = mockDaemon('http://127.0.0.1:4000');
    const daemon = mockDaemon();
    const { store, state } = setup();
    store.dispatch(optionsChanged({ api: 'http://127.0.0.1:3999' }));
    await advance(50);
    store.dispatch(optionsChanged({ api: 'http://127.0.0.1:4000/' }));
    await advance(CONNECT_DEBOUNCE_MS - 1);
    expect(other.calls).toEqual([]);
    await advance(1);
    expect(other.calls).toEqual(['GET /version', 'GET /connect', 'GET /pool']);
    expect(daemon.calls).toEqual([]);
    expect(state().options.api).toBe('http://127.0.0.1:4000');
  });

  it('does nothing when nothing changed', async () => {
    const daemon = mockDaemon();
    const { store } = setup();
    store.dispatch(optionsChanged({ api: DAEMON, allowLan: false }));
    await advance(CONNECT_DEBOUNCE_MS * 5);
    expect(daemon.calls).toEqual([]);
  });

  it('takes the platform name without bothering a daemon that is idle', async () => {
    const daemon = mockDaemon();
    const { store, state } = setup();
    store.dispatch(daemonNamed('Spring Cup::CTF'));
    await advance(CONNECT_DEBOUNCE_MS * 5);
    expect(state().options.name).toBe('Spring Cup::CTF');
    expect(daemon.calls).toEqual([]);
  });

  it('restarts a running start-up connect under the platform name, 100 ms later and still quietly', async () => {
    const daemon = mockDaemon();
    daemon.connect = 200;
    daemon.connectAfterRegister = 201;
    const { store, state, notifications } = setup();
    store.dispatch(appStarted());
    store.dispatch(daemonNamed('Spring Cup::CTF'));
    await advance(CONNECT_DEBOUNCE_MS);
    expect(daemon.bodies).toEqual([
      {
        call: 'POST /connect',
        body: { name: 'Spring Cup::CTF', features: ['basic', 'pingfall'], host: 'IN_HEADER', state: 'pending' },
      },
    ]);
    expect(state().daemon).toBe('Pending');

    daemon.version = 'network-error';
    store.dispatch(appStarted());
    store.dispatch(daemonNamed('Autumn Cup::CTF'));
    await advance(CONNECT_DEBOUNCE_MS);
    expect(state().error).toBe('daemon_unavailable');
    // Only the fall from Pending is news; the absent daemon itself is not, at start-up.
    expect(notifications().map((notification) => notification.id)).toEqual(['wsrx-daemon-offline']);
    expect(notifications()[0]?.title).toBe('wsrx went offline');
  });

  it('a renamed attempt the user asked for still reports an absent daemon', async () => {
    const daemon = mockDaemon();
    daemon.version = 'network-error';
    const { store, notifications } = setup();
    store.dispatch(connectRequested());
    store.dispatch(daemonNamed('Spring Cup::CTF'));
    await advance(CONNECT_DEBOUNCE_MS);
    expect(notifications()).toEqual([
      expect.objectContaining({ id: 'wsrx-daemon-offline', title: 'wsrx is not reachable' }),
    ]);
  });

  it('never stores an address that is not http(s)', () => {
    const { store, state } = setup();
    for (const api of ['javascript:alert(1)', 'file:///etc/passwd', '127.0.0.1:3307', 'http://user:pw@host', '']) {
      store.dispatch(optionsChanged({ api }));
    }
    expect(state().options.api).toBe(DAEMON);
  });
});

describe('mapping instances', () => {
  async function usable(wsrx: Partial<WsrxState> = {}) {
    const daemon = mockDaemon();
    const context = setup({ daemon: 'Usable', poolSynced: true, ...wsrx });
    return { daemon, ...context };
  }

  it('adds a remote to the pool on loopback and keeps the address the daemon bound', async () => {
    const { daemon, store, state } = await usable();
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    expect(state().mapping).toEqual({ [REMOTE]: 'adding' });
    await advance();
    expect(daemon.bodies).toEqual([
      { call: 'POST /pool', body: { label: 'Baby heap', remote: REMOTE, local: '127.0.0.1:0' } },
    ]);
    expect(state().instances).toEqual([{ label: 'Baby heap', remote: REMOTE, local: '127.0.0.1:41234', latency: 0 }]);
    expect(state().mapping).toEqual({});
  });

  it('binds every interface when LAN access is allowed', async () => {
    const { daemon, store } = await usable({ options: { ...initialWsrxState.options, allowLan: true } });
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    await advance();
    expect(daemon.bodies[0]?.body).toMatchObject({ local: '0.0.0.0:0' });
  });

  it('reuses a remote already in the pool, without a call', async () => {
    const existing = { label: 'Baby heap', remote: REMOTE, local: '127.0.0.1:40000' };
    const { daemon, store, state } = await usable({ instances: [existing] });
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    await advance();
    expect(daemon.calls).toEqual([]);
    expect(state().instances).toEqual([existing]);
  });

  it('adds a remote once, however often it is asked for meanwhile', async () => {
    const { daemon, store } = await usable();
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    await advance();
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    await advance();
    expect(daemon.calls).toEqual(['POST /pool']);
  });

  it('reads the pool first when it was not read yet, and reuses what it finds', async () => {
    const { daemon, store, state } = await usable({ poolSynced: false });
    daemon.pool = [{ label: 'Baby heap', remote: REMOTE, local: '127.0.0.1:40000' }];
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    await advance();
    expect(daemon.calls).toEqual(['GET /pool']);
    expect(state().instances).toEqual(daemon.pool);
  });

  it('asks nothing of a daemon that is not usable', async () => {
    const daemon = mockDaemon();
    for (const status of ['Invalid', 'Pending'] as const) {
      const { store } = setup({ daemon: status });
      store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    }
    await advance();
    expect(daemon.calls).toEqual([]);
  });

  it.each([
    [403, 'scope_unverified'],
    [401, 'missing_scope'],
  ] as const)('shows the generic error when the pool answers %s (%s)', async (status, kind) => {
    const { daemon, store, state, notifications } = await usable();
    daemon.poolStatus = status;
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    await advance();
    expect(state()).toMatchObject({ error: kind, mapping: { [REMOTE]: 'failed' }, instances: [] });
    expect(notifications()).toEqual([
      { id: expect.any(String), variant: 'error', title: 'Error encountered', message: 'Unknown error' },
    ]);
  });

  it('reports a daemon error with the daemon’s words', async () => {
    const { daemon, store, notifications } = await usable();
    daemon.poolStatus = 500;
    daemon.poolErrorText = 'remote url is not a websocket url';
    store.dispatch(mappingRequested({ remote: REMOTE, label: 'Baby heap' }));
    await advance();
    expect(notifications()).toEqual([
      { id: 'wsrx-daemon-error', variant: 'error', title: 'wsrx error', message: 'remote url is not a websocket url' },
    ]);
  });

  it('removes a mapping with DELETE /pool', async () => {
    const existing = { label: 'Baby heap', remote: REMOTE, local: '127.0.0.1:40000' };
    const { daemon, store, state } = await usable({ instances: [existing] });
    daemon.pool = [existing];
    store.dispatch(mappingReleased({ local: '127.0.0.1:40000' }));
    await advance();
    expect(daemon.bodies).toEqual([{ call: 'DELETE /pool', body: { local: '127.0.0.1:40000' } }]);
    expect(state().instances).toEqual([]);
  });
});
