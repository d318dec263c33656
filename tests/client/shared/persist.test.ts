import { decompressFromUTF16 } from 'lz-string';
import type { Persistor } from 'redux-persist';
import { takeApiSnapshot, toRehydrationInfo } from '@/shared/persist/apiSnapshot';
import { cleanLocalCache, removeStoredCache } from '@/shared/persist/cleanCache';
import { compressTransform } from '@/shared/persist/compressTransform';

const state = { language: 'fr-FR', colorScheme: 'light', list: Array.from({ length: 50 }, (_, i) => `item ${i}`) };

describe('the compress transform', () => {
  it('round-trips a slice through compressed UTF-16 text', () => {
    const stored = compressTransform.in(state, 'preferences', {});
    expect(typeof stored).toBe('string');
    expect(stored).not.toContain('fr-FR');
    expect(stored.length).toBeLessThan(JSON.stringify(state).length);
    expect(JSON.parse(decompressFromUTF16(stored))).toEqual(state);
    expect(compressTransform.out(stored, 'preferences', {})).toEqual(state);
  });

  it('reads back text it did not write as nothing, so the slice starts fresh', () => {
    expect(compressTransform.out('{"language":"en-US"}', 'preferences', {})).toBeUndefined();
    expect(compressTransform.out(42 as unknown as string, 'preferences', {})).toBeUndefined();
  });
});

const entry = (endpointName: string, extra: object = {}) => ({
  status: 'fulfilled',
  endpointName,
  requestId: `id-${endpointName}`,
  originalArgs: undefined,
  data: { title: endpointName },
  startedTimeStamp: 1,
  fulfilledTimeStamp: 2,
  ...extra,
});

describe('the API snapshot', () => {
  it('keeps only the named endpoints, only entries with data, as plain fulfilled data', () => {
    const snapshot = takeApiSnapshot(
      {
        queries: {
          'infoGetClientConfig(undefined)': entry('infoGetClientConfig'),
          'gameList(undefined)': entry('gameList'),
          'infoPending(undefined)': { status: 'pending', endpointName: 'infoGetClientConfig', requestId: 'p' },
          'infoFailed(1)': entry('infoGetClientConfig', {
            status: 'rejected',
            error: { status: 500, data: { title: 'boom' } },
            fulfilledTimeStamp: 1,
          }),
        },
        mutations: { x: entry('infoGetClientConfig') },
        subscriptions: {},
        config: {},
      },
      { endpoints: ['infoGetClientConfig'] },
    );
    expect(Object.keys(snapshot.queries).sort()).toEqual(['infoFailed(1)', 'infoGetClientConfig(undefined)']);
    for (const kept of Object.values(snapshot.queries)) {
      expect(kept.status).toBe('fulfilled');
      expect(kept).not.toHaveProperty('error');
    }
    expect(snapshot).not.toHaveProperty('mutations');
  });

  it('is bounded in entries and size, newest first', () => {
    const queries = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [
        `q(${i})`,
        entry('feed', { fulfilledTimeStamp: i, data: 'x'.repeat(100) }),
      ]),
    );
    const byCount = takeApiSnapshot({ queries }, { endpoints: ['feed'], maxEntries: 5 });
    expect(Object.keys(byCount.queries)).toEqual(['q(29)', 'q(28)', 'q(27)', 'q(26)', 'q(25)']);
    const bySize = takeApiSnapshot({ queries }, { endpoints: ['feed'], maxChars: 1000 });
    expect(JSON.stringify(bySize).length).toBeLessThan(1200);
    expect(Object.keys(bySize.queries).length).toBeGreaterThan(0);
  });

  it('turns a stored snapshot into what RTK Query rehydrates, ignoring anything odd', () => {
    expect(toRehydrationInfo(undefined)).toBeUndefined();
    expect(toRehydrationInfo('junk')).toBeUndefined();
    const info = toRehydrationInfo({ queries: { good: entry('a'), bad: { status: 'pending' }, worse: 7 } });
    expect(info).toEqual({ queries: { good: entry('a') }, mutations: {}, provided: { tags: {}, keys: {} } });
  });
});

describe('clean cache', () => {
  beforeEach(() => localStorage.clear());

  it('removes every persisted key and nothing else, then reloads', async () => {
    localStorage.setItem('persist:gzctf', 'cache');
    localStorage.setItem('persist:other', 'cache');
    localStorage.setItem('unrelated', 'keep me');
    const reload = jest.fn();
    await cleanLocalCache({ reload });
    expect(localStorage.getItem('persist:gzctf')).toBeNull();
    expect(localStorage.getItem('persist:other')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('keep me');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('drains, pauses and purges a running persistor before wiping', async () => {
    const calls: string[] = [];
    const persistor = {
      flush: jest.fn(async () => void calls.push('flush')),
      pause: jest.fn(() => void calls.push('pause')),
      purge: jest.fn(async () => void calls.push('purge')),
    } as unknown as Persistor;
    const reload = jest.fn(() => void calls.push('reload'));
    await cleanLocalCache({ persistor, reload });
    expect(calls).toEqual(['flush', 'pause', 'purge', 'reload']);
  });

  it('reports what it removed', () => {
    localStorage.setItem('persist:gzctf', 'x');
    expect(removeStoredCache()).toEqual(['persist:gzctf']);
  });
});
