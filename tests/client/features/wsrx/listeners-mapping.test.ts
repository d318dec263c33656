import { CONNECT_DEBOUNCE_MS } from '@/features/wsrx/listeners';
import {
  connectRequested,
  daemonNamed,
  initialWsrxState,
  mappingReleased,
  mappingRequested,
  optionsChanged,
  type WsrxState,
} from '@/features/wsrx/slice';
import { appStarted } from '@/shared/lifecycle';
import { DAEMON, mockDaemon } from './support';
import { advance, REMOTE, setup, useListenerClock } from './listenerStore';

useListenerClock();

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
