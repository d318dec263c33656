import Typography from '@mui/material/Typography';
import type { GridColDef, GridPaginationModel, GridRowIdGetter, GridValidRowModel } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@/shared/ui/grid/DataTable';

/** A page of a server-paged admin list (`ArrayResponse`): its rows and, from our server, the total. */
interface ListPage<R> {
  data: R[];
  length: number;
  total?: number;
}

const NO_ROWS: never[] = [];

/**
 * An admin grid paged and searched by the server, with the number of matches above it while a
 * search is on. Rows are only those of the page and search asked for (not the previous ones while
 * they load); the count stays from the last answer, so the grid keeps its page meanwhile.
 */
export function SearchedGrid<R extends GridValidRowModel>({
  label,
  list,
  searching,
  columns,
  getRowId,
  page,
  onPageChange,
}: {
  label: string;
  list: { data?: ListPage<R>; currentData?: ListPage<R>; isFetching: boolean };
  searching: boolean;
  columns: GridColDef<R>[];
  getRowId: GridRowIdGetter<R>;
  page: GridPaginationModel;
  onPageChange: (page: GridPaginationModel) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {searching && (
        <Typography variant="body2" color="text.secondary" role="status">
          {t('admin:search.results', { number: list.currentData?.total ?? 0 })}
        </Typography>
      )}
      <DataTable
        aria-label={label}
        rows={list.currentData?.data ?? NO_ROWS}
        columns={columns}
        getRowId={getRowId}
        loading={list.isFetching}
        rowHeight={60}
        paginationMode="server"
        rowCount={list.data?.total ?? list.data?.length ?? 0}
        paginationModel={page}
        onPaginationModelChange={onPageChange}
      />
    </>
  );
}
