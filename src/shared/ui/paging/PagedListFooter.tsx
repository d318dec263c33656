import TablePagination from '@mui/material/TablePagination';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, type PagedListState } from './usePagedList';
import { WRAPPING_PAGER_SX } from './wrappingPager';

/**
 * Page switcher and page size under a server-paged list, in the reader's language.
 *
 * `total` may be -1 when the server does not say it (a GZCTF server sends no `X-Total-Count`): the
 * pager then offers a next page while this one is `full`. With one entry in `pageSizes` the size
 * is fixed and its picker hidden.
 */
export function PagedListFooter({
  list,
  total,
  pageSizes = PAGE_SIZES,
  full = false,
}: {
  list: PagedListState;
  total: number;
  pageSizes?: readonly number[];
  full?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={total}
      page={list.page}
      onPageChange={(_event, page) => list.setPage(page)}
      rowsPerPage={list.pageSize}
      rowsPerPageOptions={[...pageSizes]}
      onRowsPerPageChange={(event) => list.setPageSize(Number(event.target.value))}
      labelRowsPerPage={t('paging.rowsPerPage')}
      labelDisplayedRows={({ from, to, count }) =>
        count >= 0 ? t('paging.displayedRows', { from, to, count }) : t('paging.displayedRowsOpen', { from, to })
      }
      getItemAriaLabel={(type) => t(`paging.goTo.${type}`)}
      showFirstButton
      showLastButton
      sx={WRAPPING_PAGER_SX}
      slotProps={total < 0 ? { actions: { nextButton: { disabled: !full } } } : undefined}
    />
  );
}
