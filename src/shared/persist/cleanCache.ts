import type { Persistor } from 'redux-persist';
import { STORAGE_KEY_PREFIX } from './config';

export interface CleanCacheOptions {
  /** The running persistor, when there is one: paused and purged so nothing is written back. */
  persistor?: Persistor;
  storage?: Storage;
  reload?: () => void;
}

/** Removes every key of the local cache (all `persist:*` entries) from storage. */
export function removeStoredCache(storage: Storage = window.localStorage): string[] {
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter(
    (key): key is string => key !== null && key.startsWith(STORAGE_KEY_PREFIX),
  );
  keys.forEach((key) => storage.removeItem(key));
  return keys;
}

/**
 * "Clean cache" (spec §2): wipe the persisted local cache, then reload the page. The persistor is
 * drained and paused first, so neither its write timer nor the unload flush can put the old state back.
 */
export async function cleanLocalCache({
  persistor,
  storage = window.localStorage,
  reload = () => window.location.reload(),
}: CleanCacheOptions = {}): Promise<void> {
  if (persistor) {
    try {
      await persistor.flush();
      persistor.pause();
      await persistor.purge();
    } catch (error) {
      console.error('Could not purge the persisted state; removing it from storage directly.', error);
    }
  }
  removeStoredCache(storage);
  reload();
}
