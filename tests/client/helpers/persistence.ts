import { decompressFromUTF16 } from 'lz-string';
import { startPersistence, type Persistence } from '@/app/persist';
import { setupStore, type AppStore } from '@/app/store';
import { baseApi } from '@/shared/api/baseApi';
import { STORAGE_KEY } from '@/shared/persist/config';

const running: Persistence[] = [];

/** A store with the real persistence, resolved once the stored cache is restored. */
export async function startPersisted(): Promise<{ store: AppStore; persistence: Persistence; reload: jest.Mock }> {
  const store = setupStore();
  store.dispatch(baseApi.util.resetApiState());
  const reload = jest.fn();
  let persistence!: Persistence;
  await new Promise<void>((resolve) => {
    persistence = startPersistence(store, { onRestored: resolve, reload });
  });
  running.push(persistence);
  return { store, persistence, reload };
}

/** The stored cache, decoded: each slice is its own compressed string. */
export function storedCache(): Record<string, unknown> {
  const raw = localStorage.getItem(STORAGE_KEY);
  if (!raw) return {};
  const outer = JSON.parse(raw) as Record<string, string>;
  return Object.fromEntries(
    Object.entries(outer).map(([key, value]) => [key, JSON.parse(decompressFromUTF16(JSON.parse(value) as string))]),
  );
}

/**
 * Called at a test file's top level: each test starts from empty storage, and every persistence it
 * started is stopped after it, so that no write lands in the next test's storage.
 */
export function isolatePersistence(): void {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    running.splice(0).forEach((persistence) => {
      persistence.persistor.pause();
      persistence.dispose();
    });
  });
}
