import type { SxProps, Theme } from '@mui/material/styles';

/**
 * For a TablePagination: on a phone its toolbar wraps (the range and the page buttons on their own
 * line) instead of pushing the buttons past the screen's edge, where nobody finds "next page".
 */
export const WRAPPING_PAGER_SX: SxProps<Theme> = {
  '& .MuiTablePagination-toolbar': {
    flexWrap: 'wrap',
    justifyContent: 'flex-end',
    rowGap: 0.5,
    pl: { xs: 1, sm: 2 },
    pr: { xs: 0.5, sm: 1 },
  },
  '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
  '& .MuiTablePagination-actions': { ml: { xs: 1, sm: 2.5 } },
};
