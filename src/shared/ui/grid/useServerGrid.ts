import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { usePagedList } from '../paging/usePagedList';
import { PAGE_SIZE_OPTIONS } from './DataTable';

export type SortDirection = 'asc' | 'desc';

/** The paging, search and sort parameters of an admin list endpoint (all optional on the wire). */
export interface ServerGridQuery<S extends string> {
  count: number;
  skip: number;
  search?: string;
  sort?: S;
  order?: SortDirection;
}

export interface ServerGridState<S extends string> {
  /** What the search box shows; the request only follows once typing pauses. */
  search: string;
  setSearch: (text: string) => void;
  /** Whether the rows are narrowed by a (settled) search. */
  searching: boolean;
  paginationModel: GridPaginationModel;
  setPaginationModel: (model: GridPaginationModel) => void;
  sortModel: GridSortModel;
  setSortModel: (model: GridSortModel) => void;
  /** The columns the server can sort by; the grid offers sorting on these only. */
  sortable: readonly S[];
  /** The arguments for the list query. */
  query: ServerGridQuery<S>;
}

/**
 * The state of an admin grid that the server pages, searches and sorts: pass `query` to the list's
 * query hook and the state to `ServerGrid`.
 *
 *   const grid = useServerGrid({ sortable: ['userName', 'registerTimeUtc'] as const });
 *   const list = useAdminGetUsersQuery(grid.query, { refetchOnMountOrArgChange: true });
 *   <SearchField value={grid.search} onChange={grid.setSearch} … />
 *   <ServerGrid grid={grid} rows={list.currentData?.data} total={list.data?.total} … />
 *
 * The page belongs to the search, sort and `filters` it was chosen under: when one of them changes
 * the grid starts at the first page in the same render as the new arguments, so no request goes out
 * for the old search on the new page or the new search on the old page. Search waits for a pause in
 * typing (`useDebouncedValue`), so a burst of keys costs one request.
 */
export function useServerGrid<S extends string = never>({
  sortable = [],
  filters = [],
  pageSize = PAGE_SIZE_OPTIONS[0]!,
}: {
  sortable?: readonly S[];
  filters?: readonly unknown[];
  pageSize?: number;
} = {}): ServerGridState<S> {
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [first] = sortModel;
  const sort = first && (sortable as readonly string[]).includes(first.field) ? (first.field as S) : undefined;
  const order: SortDirection | undefined = sort === undefined ? undefined : first?.sort === 'desc' ? 'desc' : 'asc';
  const paging = usePagedList([...filters, sort, order], pageSize);
  const settled = paging.settledSearch.trim();
  const { setPage, setPageSize } = paging;

  const setPaginationModel = useCallback(
    (model: GridPaginationModel) => {
      setPageSize(model.pageSize);
      setPage(model.page);
    },
    [setPage, setPageSize],
  );
  const paginationModel = useMemo(
    () => ({ page: paging.page, pageSize: paging.pageSize }),
    [paging.page, paging.pageSize],
  );
  const query = useMemo<ServerGridQuery<S>>(
    () => ({
      count: paging.count,
      skip: paging.skip,
      ...(settled ? { search: settled } : {}),
      ...(sort ? { sort, order } : {}),
    }),
    [paging.count, paging.skip, settled, sort, order],
  );
  return {
    search: paging.search,
    setSearch: paging.setSearch,
    searching: settled !== '',
    paginationModel,
    setPaginationModel,
    sortModel,
    setSortModel,
    sortable,
    query,
  };
}
