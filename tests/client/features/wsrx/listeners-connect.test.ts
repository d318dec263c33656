import { POLL_INTERVAL_MS } from '@/features/wsrx/listeners';
import { connectRequested, initialWsrxState } from '@/features/wsrx/slice';
import { appStarted } from '@/shared/lifecycle';
import { mockDaemon } from './support';
import { advance, REMOTE, setup, useListenerClock } from './listenerStore';

useListenerClock();

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
