import type { Page } from '@/shared/api/paging';

/**
 * The count a monitor list's pager shows: the server's `X-Total-Count`. A GZCTF server sends no
 * such header (`toPage` then takes the page's length), so a total that cannot be right — no larger
 * than a full page it came with, or than what the earlier pages already held — means "unknown" (-1):
 * the next page exists while this one is full.
 */
export function pagerCount(list: Page<unknown> | undefined, page: number, pageSize: number): number {
  const length = list?.items.length ?? 0;
  const total = list?.total ?? 0;
  const plausible = total >= page * pageSize + length && !(total === length && length >= pageSize);
  if (plausible) return total;
  return length >= pageSize ? -1 : page * pageSize + length;
}
