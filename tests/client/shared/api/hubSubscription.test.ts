import { waitFor } from '@testing-library/react';
import { hubSubscription } from '@/shared/api/hubSubscription';

/** A stand-in for SignalR's connection: records the URL and handlers, and lets the test push. */
class FakeConnection {
  static last: FakeConnection | undefined;
  readonly handlers = new Map<string, (payload: unknown) => void>();
  started = false;
  stopped = false;
  constructor(readonly url: string) {
    FakeConnection.last = this;
  }
  on(method: string, handler: (payload: unknown) => void) {
    this.handlers.set(method, handler);
  }
  start() {
    this.started = true;
    return Promise.resolve();
  }
  stop() {
    this.stopped = true;
    return Promise.resolve();
  }
}

jest.mock('@microsoft/signalr', () => {
  class HubConnectionBuilder {
    private url = '';
    withUrl(url: string) {
      this.url = url;
      return this;
    }
    withAutomaticReconnect() {
      return this;
    }
    configureLogging() {
      return this;
    }
    build() {
      return new FakeConnection(this.url);
    }
  }
  return { HubConnectionBuilder, LogLevel: { None: 6 } };
});

/** A cache entry's lifecycle whose two moments the test decides. */
function lifecycle() {
  let loaded!: () => void;
  let failed!: (error: unknown) => void;
  let removed!: () => void;
  const cacheDataLoaded = new Promise<void>((resolve, reject) => {
    loaded = resolve;
    failed = reject;
  });
  const cacheEntryRemoved = new Promise<void>((resolve) => (removed = resolve));
  const updates: unknown[] = [];
  return {
    api: { cacheDataLoaded, cacheEntryRemoved, updateCachedData: (value: unknown) => updates.push(value) },
    loaded,
    failed,
    removed,
    updates,
  };
}

beforeEach(() => {
  FakeConnection.last = undefined;
});

describe('hubSubscription', () => {
  it('opens the hub for the game once the entry has data, routes pushes, and stops with the entry', async () => {
    const entry = lifecycle();
    const onCacheEntryAdded = hubSubscription<{ id: number }, typeof entry.api>('/hub/monitor', (arg, api) => ({
      ReceivedGameEvent: (payload) => api.updateCachedData({ game: arg.id, payload }),
    }));
    const done = onCacheEntryAdded({ id: 7 }, entry.api);

    // Nothing opens before the first data.
    await Promise.resolve();
    expect(FakeConnection.last).toBeUndefined();

    entry.loaded();
    await waitFor(() => expect(FakeConnection.last?.started).toBe(true));
    const connection = FakeConnection.last!;
    expect(connection.url).toBe('/hub/monitor?game=7');
    connection.handlers.get('ReceivedGameEvent')!({ type: 'FlagSubmit' });
    expect(entry.updates).toEqual([{ game: 7, payload: { type: 'FlagSubmit' } }]);

    entry.removed();
    await done;
    expect(connection.stopped).toBe(true);
  });

  it('never opens the hub for an entry that failed or went away before its first data', async () => {
    const entry = lifecycle();
    const handlers = jest.fn(() => ({}));
    const done = hubSubscription<{ id: number }, typeof entry.api>('/hub/user', handlers)({ id: 1 }, entry.api);
    entry.failed(new Error('removed'));
    await done;
    expect(handlers).not.toHaveBeenCalled();
    expect(FakeConnection.last).toBeUndefined();
  });

  it('opens the admin hub without a game: it has one channel for the whole platform', async () => {
    const entry = lifecycle();
    const done = hubSubscription<{ level: string }, typeof entry.api>('/hub/admin', (_arg, api) => ({
      ReceivedLog: (payload) => api.updateCachedData(payload),
    }))({ level: 'All' }, entry.api);
    entry.loaded();
    await waitFor(() => expect(FakeConnection.last?.started).toBe(true));
    expect(FakeConnection.last!.url).toBe('/hub/admin');
    FakeConnection.last!.handlers.get('ReceivedLog')!({ msg: 'hello' });
    expect(entry.updates).toEqual([{ msg: 'hello' }]);
    entry.removed();
    await done;
    expect(FakeConnection.last!.stopped).toBe(true);
  });
});
