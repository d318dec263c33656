import type { ApiMeta } from './baseQuery';

/**
 * A page of a big list and the number of all rows its filters match. GZCTF's list answers are bare
 * arrays; our server adds the count as `X-Total-Count` (issue 15), so a GZCTF server (no header)
 * gives `total` undefined and the pages fall back to "more while the page is full".
 */
export interface Listed<T> {
  items: T[];
  total: number | undefined;
}

export const TOTAL_HEADER = 'x-total-count';

/** For `transformResponse(body, meta)` of an endpoint whose answer is a bare array. */
export function withTotal<T>(items: T[], meta: ApiMeta | undefined): Listed<T> {
  const header = meta?.response?.headers.get(TOTAL_HEADER);
  const total = header == null || header === '' ? Number.NaN : Number(header);
  return { items, total: Number.isFinite(total) ? total : undefined };
}

/** The count a pager shows: the server's total, or (without one) "unknown" (-1) while pages are full. */
export function pagerCount(listed: Listed<unknown> | undefined, page: number, pageSize: number): number {
  if (listed?.total !== undefined) return listed.total;
  const length = listed?.items.length ?? 0;
  return length >= pageSize ? -1 : page * pageSize + length;
}
