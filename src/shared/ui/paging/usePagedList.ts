import { useCallback, useMemo, useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue';

export const PAGE_SIZES = [25, 50, 100];

export interface PagedListState {
  /** What the search field shows (changes on every keystroke). */
  search: string;
  setSearch: (text: string) => void;
  /** The search once typing paused: what goes to the server. */
  settledSearch: string;
  page: number;
  setPage: (page: number) => void;
  pageSize: number;
  setPageSize: (size: number) => void;
  /** `count`/`skip` for the request (server/src/lib/paging.ts). */
  count: number;
  skip: number;
}

/**
 * Page, page size and a debounced search for a server-paged list. Usage:
 *
 *   const list = usePagedList([status, division]);    // back to page 0 when a filter changes
 *   const query = useListThingsQuery({ id, count: list.count, skip: list.skip, search: list.settledSearch, status });
 *   <SearchField value={list.search} onChange={list.setSearch} label={…} />
 *   …rows of query.data?.items…
 *   <PagedListFooter list={list} total={query.data?.total ?? 0} />
 *
 * `filters` are the list's other filters: changing one, or the settled search, returns to the first
 * page, since the old page number means nothing in the new result.
 */
export function usePagedList(filters: readonly unknown[] = [], initialPageSize = PAGE_SIZES[1]!): PagedListState {
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search);
  const [pageState, setPageState] = useState({ page: 0, key: '' });
  const [pageSize, setPageSizeState] = useState(initialPageSize);
  const key = JSON.stringify([settledSearch, pageSize, ...filters]);
  // A page number belongs to the search and filters it was chosen under; any change starts over.
  const page = pageState.key === key ? pageState.page : 0;
  // Forget the old page at once (React re-renders before committing), or going back to the earlier
  // search or sort would bring its page back with it and fetch that page a second time.
  if (pageState.key !== key) setPageState({ page: 0, key });
  const setPage = useCallback((next: number) => setPageState({ page: next, key }), [key]);
  const setPageSize = useCallback((size: number) => setPageSizeState(size), []);
  return useMemo(
    () => ({
      search,
      setSearch,
      settledSearch,
      page,
      setPage,
      pageSize,
      setPageSize,
      count: pageSize,
      skip: page * pageSize,
    }),
    [search, settledSearch, page, setPage, pageSize, setPageSize],
  );
}
