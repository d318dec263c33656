import { createTransform } from 'redux-persist';

/**
 * A bounded snapshot of cached query data, persisted so a returning visitor sees, say, the platform
 * title and theme before the API answers. Only endpoints named in `endpoints` are kept, only entries
 * that hold data, newest first, at most `maxEntries` and about `maxChars` of JSON. Pending and error
 * state is never stored: an entry is written as plain fulfilled data, without `error`.
 *
 * On start-up the snapshot reaches the API slice through `extractRehydrationInfo` (shared/api/baseApi.ts);
 * RTK Query then serves it as cached data until the query refetches.
 */
export interface ApiSnapshotOptions {
  /** The RTK Query reducer path (`api`). */
  reducerPath: string;
  /** Endpoint names whose data is worth keeping across visits. */
  endpoints: readonly string[];
  maxEntries?: number;
  maxChars?: number;
}

interface SnapshotEntry {
  status: 'fulfilled';
  endpointName: string;
  requestId: string;
  originalArgs: unknown;
  data: unknown;
  startedTimeStamp: number;
  fulfilledTimeStamp: number;
}

export interface ApiSnapshot {
  queries: Record<string, SnapshotEntry>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function toEntry(value: unknown, endpoints: readonly string[]): SnapshotEntry | undefined {
  if (!isRecord(value) || value.data === undefined) return undefined;
  if (typeof value.endpointName !== 'string' || !endpoints.includes(value.endpointName)) return undefined;
  const fulfilled = typeof value.fulfilledTimeStamp === 'number' ? value.fulfilledTimeStamp : 0;
  return {
    status: 'fulfilled',
    endpointName: value.endpointName,
    requestId: typeof value.requestId === 'string' ? value.requestId : 'persisted',
    originalArgs: value.originalArgs,
    data: value.data,
    startedTimeStamp: typeof value.startedTimeStamp === 'number' ? value.startedTimeStamp : fulfilled,
    fulfilledTimeStamp: fulfilled,
  };
}

/** The part of the API state worth keeping, within the bounds. */
export function takeApiSnapshot(
  apiState: unknown,
  { endpoints, maxEntries = 20, maxChars = 100_000 }: Omit<ApiSnapshotOptions, 'reducerPath'>,
): ApiSnapshot {
  const queries = isRecord(apiState) && isRecord(apiState.queries) ? apiState.queries : {};
  const entries = Object.entries(queries)
    .map(([cacheKey, value]) => [cacheKey, toEntry(value, endpoints)] as const)
    .filter((pair): pair is readonly [string, SnapshotEntry] => pair[1] !== undefined)
    .sort((a, b) => b[1].fulfilledTimeStamp - a[1].fulfilledTimeStamp);
  const kept: Record<string, SnapshotEntry> = {};
  let chars = 0;
  for (const [cacheKey, entry] of entries) {
    if (Object.keys(kept).length >= maxEntries) break;
    const size = JSON.stringify(entry).length;
    if (chars + size > maxChars) continue;
    chars += size;
    kept[cacheKey] = entry;
  }
  return { queries: kept };
}

/** redux-persist transform applying `takeApiSnapshot` to the API slice on the way into storage. */
export function createApiSnapshotTransform({ reducerPath, ...bounds }: ApiSnapshotOptions) {
  return createTransform<unknown, ApiSnapshot>(
    (apiState) => takeApiSnapshot(apiState, bounds),
    (stored) => takeApiSnapshot(stored, bounds),
    { whitelist: [reducerPath] },
  );
}

/**
 * Turns a stored snapshot into what RTK Query's rehydration expects (queries, mutations, provided
 * tags), or undefined when there is nothing usable. Tags are left empty: the first refetch provides them.
 */
export function toRehydrationInfo(stored: unknown) {
  if (!isRecord(stored) || !isRecord(stored.queries)) return undefined;
  const queries: Record<string, SnapshotEntry> = {};
  for (const [cacheKey, value] of Object.entries(stored.queries)) {
    if (isRecord(value) && value.status === 'fulfilled' && value.data !== undefined) {
      queries[cacheKey] = value as unknown as SnapshotEntry;
    }
  }
  return { queries, mutations: {}, provided: { tags: {}, keys: {} } };
}
