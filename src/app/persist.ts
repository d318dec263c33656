import type { Reducer } from '@reduxjs/toolkit';
import { createTransform, persistReducer, persistStore, type PersistConfig, type Persistor } from 'redux-persist';
import storage from 'redux-persist/lib/storage';
import { PERSISTED_INFO_ENDPOINTS } from '@/features/info/api';
import { persistedWsrx, sanitizeWsrx, wsrxSlice } from '@/features/wsrx/slice';
import { baseApi } from '@/shared/api/baseApi';
import { createApiSnapshotTransform } from '@/shared/persist/apiSnapshot';
import { cleanLocalCache } from '@/shared/persist/cleanCache';
import { compressTransform } from '@/shared/persist/compressTransform';
import { PERSIST_KEY, PERSIST_VERSION } from '@/shared/persist/config';
import { preferencesSlice, sanitizePreferences } from '@/shared/preferences/slice';

/**
 * The local cache (spec §9): client slices plus a bounded snapshot of query data, compressed in
 * localStorage, written at most once a second while the page runs and flushed when it is hidden or
 * unloaded, restored at start-up (PersistGate in Providers.tsx), wiped by "clean cache".
 */

/** Query data worth keeping across visits; add an endpoint here when a returning visitor should see it at once. */
export const PERSISTED_ENDPOINTS: readonly string[] = [...PERSISTED_INFO_ENDPOINTS];

/** Client slices restored at start-up, each with the check its stored value must pass. */
const CLIENT_SLICES: Record<string, (stored: unknown) => unknown> = {
  [preferencesSlice.reducerPath]: sanitizePreferences,
  [wsrxSlice.reducerPath]: sanitizeWsrx,
};

/**
 * The part of a client slice worth storing, where that is not the whole slice: wsrx keeps its
 * options, while the daemon's state and pool are asked for again at start-up.
 */
const STORED_PARTS: Record<string, (state: never) => unknown> = {
  [wsrxSlice.reducerPath]: persistedWsrx,
};

const storedPartsTransform = createTransform<unknown, unknown>(
  (state, key) => {
    const part = STORED_PARTS[String(key)];
    return part ? part(state as never) : state;
  },
  (stored) => stored,
  { whitelist: Object.keys(STORED_PARTS) },
);

export const PERSIST_THROTTLE_MS = 1000;

/**
 * Client slices are replaced by their checked stored value; the API slice restores itself through
 * `extractRehydrationInfo` (shared/api/baseApi.ts), so the inbound snapshot is never merged into it.
 */
function reconcile<S>(inbound: unknown, _original: S, reduced: S): S {
  if (!inbound || typeof inbound !== 'object') return reduced;
  const next: Record<string, unknown> = { ...(reduced as Record<string, unknown>) };
  for (const [key, sanitize] of Object.entries(CLIENT_SLICES)) {
    if (key in inbound) next[key] = sanitize((inbound as Record<string, unknown>)[key]);
  }
  return next as S;
}

export function persistConfig<S>(): PersistConfig<S> {
  return {
    key: PERSIST_KEY,
    version: PERSIST_VERSION,
    storage,
    whitelist: [...Object.keys(CLIENT_SLICES), baseApi.reducerPath],
    // Snapshot and trim first (on the way in), then compress; on the way out, decompress, then re-check.
    transforms: [
      createApiSnapshotTransform({ reducerPath: baseApi.reducerPath, endpoints: PERSISTED_ENDPOINTS }),
      storedPartsTransform,
      compressTransform,
    ],
    throttle: PERSIST_THROTTLE_MS,
    stateReconciler: reconcile<S>,
    // A cache written by another version is dropped rather than trusted.
    migrate: async (state, version) => (state?._persist?.version === version ? state : undefined),
  };
}

/** redux-persist 6 predates Redux 5's reducer type; one cast bridges them (stack-notes §7). */
export function persistRootReducer<S>(rootReducer: Reducer<S>) {
  return persistReducer<S>(persistConfig<S>(), rootReducer as Reducer<S>);
}

export interface Persistence {
  persistor: Persistor;
  /** "Clean cache": stop writing, wipe storage, reload. */
  cleanCache: () => Promise<void>;
  /** Removes the unload listeners (tests). */
  dispose: () => void;
}

/** Starts restoring and saving the cache of `store`; saves whatever is pending when the page goes away. */
export function startPersistence(
  store: Parameters<typeof persistStore>[0],
  { onRestored, reload }: { onRestored?: () => void; reload?: () => void } = {},
): Persistence {
  const persistor = persistStore(store, null, onRestored);
  let wiping = false;
  const flush = () => {
    if (!wiping) void persistor.flush();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  window.addEventListener('beforeunload', flush);
  document.addEventListener('visibilitychange', onVisibility);
  const dispose = () => {
    window.removeEventListener('pagehide', flush);
    window.removeEventListener('beforeunload', flush);
    document.removeEventListener('visibilitychange', onVisibility);
  };
  return {
    persistor,
    dispose,
    async cleanCache() {
      wiping = true;
      dispose();
      await cleanLocalCache({ persistor, reload });
    },
  };
}
