import TablePagination from '@mui/material/TablePagination';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, type PagedListState } from './usePagedList';

/** Page switcher and page size under a server-paged list, in the reader's language. */
export function PagedListFooter({ list, total }: { list: PagedListState; total: number }) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={total}
      page={list.page}
      onPageChange={(_event, page) => list.setPage(page)}
      rowsPerPage={list.pageSize}
      rowsPerPageOptions={PAGE_SIZES}
      onRowsPerPageChange={(event) => list.setPageSize(Number(event.target.value))}
      labelRowsPerPage={t('paging.rowsPerPage')}
      labelDisplayedRows={({ from, to, count }) => t('paging.displayedRows', { from, to, count })}
      getItemAriaLabel={(type) => t(`paging.goTo.${type}`)}
      showFirstButton
      showLastButton
    />
  );
}
