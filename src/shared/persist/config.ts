/**
 * The local cache: redux-persist keeps it in localStorage under `persist:<PERSIST_KEY>`, each slice
 * compressed (compressTransform.ts). Bump PERSIST_VERSION when a persisted shape changes: a stored
 * cache of another version is dropped at start instead of rehydrated.
 */
export const PERSIST_KEY = 'gzctf';
export const PERSIST_VERSION = 1;
export const STORAGE_KEY_PREFIX = 'persist:';
export const STORAGE_KEY = `${STORAGE_KEY_PREFIX}${PERSIST_KEY}`;
