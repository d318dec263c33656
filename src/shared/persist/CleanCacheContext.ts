import { createContext, useContext } from 'react';
import { cleanLocalCache } from './cleanCache';

/**
 * How "clean cache" is done here. src/app provides one that also stops its persistor; the default
 * (no provider, e.g. above the store) still wipes storage and reloads.
 */
export const CleanCacheContext = createContext<() => Promise<void>>(() => cleanLocalCache());

export const useCleanCache = () => useContext(CleanCacheContext);
