import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Server-side sorting of the admin lists (beyond GZCTF: `sort` and `order` query parameters). The
 * contract's enums are the whitelist, so Ajv refuses any other value with a 400 before a handler
 * runs; each repository maps the allowed names to its columns here.
 */
export type SortOrder = 'asc' | 'desc';

export interface SortRequest<K extends string> {
  sort?: K | undefined;
  order?: SortOrder | undefined;
}

/**
 * The ORDER BY of a page: the chosen column in the chosen direction, then the id the same way, so
 * equal values (two users registered in the same millisecond, two teams both locked) keep one order
 * from page to page and no row is shown twice or skipped. Without `sort`, `fallback` stands.
 */
export function sortOrder<K extends string>(
  columns: Record<K, AnyColumn | SQL>,
  id: AnyColumn,
  request: SortRequest<K>,
  fallback: SQL[],
): SQL[] {
  if (!request.sort) return fallback;
  const direction = request.order === 'desc' ? desc : asc;
  return [direction(columns[request.sort]), direction(id)];
}
