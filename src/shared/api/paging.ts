import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';

/**
 * One page of a server-paged list: the items and the filtered total the server
 * sends in `X-Total-Count` (server/src/lib/paging.ts). Usage in a feature's api.ts:
 *
 *   listThings: build.query<Page<Thing>, ListThingsArgs>({
 *     query: ({ id, ...params }) => ({ url: `/api/things/${id}`, params: pageParams(params) }),
 *     transformResponse: toPage<Thing>,
 *   }),
 *
 * and a row action updates its row in that page's cache entry with `updateQueryData` instead of
 * invalidating the list (see src/features/edit/api.ts, participations).
 */
export interface Page<T> {
  items: T[];
  total: number;
}

export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** RTK Query `transformResponse`: the array body plus the header's total (the array's length if absent). */
export function toPage<T>(items: T[], meta: Partial<FetchBaseQueryMeta> | undefined): Page<T> {
  const header = meta?.response?.headers.get(TOTAL_COUNT_HEADER);
  const total = header === null || header === undefined ? Number.NaN : Number(header);
  return { items, total: Number.isInteger(total) && total >= 0 ? total : items.length };
}

/** Query parameters of a paged request: empty filters are left out, so the URL (and cache key) stays short. */
export function pageParams(
  params: Record<string, string | number | null | undefined>,
): Record<string, string | number> {
  const result: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') result[key] = value;
  }
  return result;
}
