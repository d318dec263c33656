import { createApi } from '@reduxjs/toolkit/query/react';
import { REHYDRATE } from 'redux-persist';
import { PERSIST_KEY } from '../persist/config';
import { toRehydrationInfo } from '../persist/apiSnapshot';
import { baseQuery } from './baseQuery';

/**
 * Live data refresh period (spec §7, §9). Features pass it as `pollingInterval` to the queries that
 * show live data (`useXQuery(arg, { pollingInterval: REFRESH_INTERVAL_MS })`); pushed hub messages
 * come on top of it.
 */
export const REFRESH_INTERVAL_MS = 10_000;

/**
 * The one API slice. Each feature's generated endpoints are injected into it, so cache tags invalidate
 * across features (joining a team refreshes the game page, and so on).
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  endpoints: () => ({}),
  // The bounded snapshot src/app persists (see persist/apiSnapshot.ts) comes back here on start-up.
  extractRehydrationInfo(action, { reducerPath }) {
    if (action.type !== REHYDRATE) return undefined;
    const { key, payload } = action as { key?: string; payload?: Record<string, unknown> | null };
    // RTK types this as the whole slice state, but reads only queries, mutations and provided tags.
    return (key === PERSIST_KEY ? toRehydrationInfo(payload?.[reducerPath]) : undefined) as never;
  },
});
