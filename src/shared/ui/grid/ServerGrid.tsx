import Typography from '@mui/material/Typography';
import type { DataGridProps, GridColDef, GridRowIdGetter, GridValidRowModel } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from './DataTable';
import type { ServerGridState } from './useServerGrid';

const NO_ROWS: never[] = [];

type PassedProps = 'rowHeight' | 'density' | 'slots' | 'slotProps' | 'pageSizeOptions' | 'getRowHeight';

/**
 * The one admin grid: rows paged, searched and sorted by the server from the state of
 * `useServerGrid`, with the number of matches above it while a search is on.
 *
 * `rows` should be those of the arguments asked for (RTK Query's `currentData`), not the previous
 * ones while they load; `total` may come from the last answer (`data`), so the pager keeps its place
 * meanwhile. Without a `total` (a GZCTF list that does not count) the pager offers a next page while
 * a page comes back full. Only the columns in `grid.sortable` can be sorted; the others have no sort
 * control, since the server could not honour it. `columns` must be stable (memoised), or the grid
 * forgets the widths people dragged.
 */
export function ServerGrid<R extends GridValidRowModel, S extends string>({
  grid,
  label,
  rows = NO_ROWS,
  total,
  loading,
  columns,
  getRowId,
  ...props
}: {
  grid: ServerGridState<S>;
  label: string;
  rows: R[] | undefined;
  total: number | undefined;
  loading: boolean;
  columns: GridColDef<R>[];
  getRowId: GridRowIdGetter<R>;
} & Pick<DataGridProps<R>, PassedProps>) {
  const { t } = useTranslation();
  const { sortable, paginationModel } = grid;
  const sortableColumns = useMemo(
    () => columns.map((column) => ({ ...column, sortable: (sortable as readonly string[]).includes(column.field) })),
    [columns, sortable],
  );
  const counted = total !== undefined;
  const hasNextPage = !counted && rows.length >= paginationModel.pageSize;
  // Unknown (-1) until a page comes back short; then the count is known up to that page.
  const rowCount = counted
    ? total
    : loading || hasNextPage
      ? -1
      : paginationModel.page * paginationModel.pageSize + rows.length;

  return (
    <>
      {grid.searching && (
        <Typography variant="body2" color="text.secondary" role="status">
          {loading || !counted ? ' ' : t('paging.searchResults', { number: total })}
        </Typography>
      )}
      <DataTable
        aria-label={label}
        rows={rows}
        columns={sortableColumns}
        getRowId={getRowId}
        loading={loading}
        paginationMode="server"
        rowCount={rowCount}
        paginationMeta={counted ? undefined : { hasNextPage }}
        paginationModel={paginationModel}
        onPaginationModelChange={grid.setPaginationModel}
        disableColumnSorting={sortable.length === 0}
        sortingMode="server"
        sortModel={grid.sortModel}
        onSortModelChange={grid.setSortModel}
        {...props}
      />
    </>
  );
}
