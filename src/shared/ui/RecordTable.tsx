import Box from '@mui/material/Box';
import type { Breakpoint, SxProps, Theme } from '@mui/material/styles';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';

export interface RecordColumn<Row> {
  key: string;
  label: string;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'right';
  /** Extra styles of the table cell (wide screens). */
  sx?: SxProps<Theme>;
}

interface Props<Row> {
  /** The accessible name of the table, and of the card list that stands in for it on narrow screens. */
  label: string;
  columns: RecordColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  /** What an empty list says (loading, or why there is nothing). */
  empty: ReactNode;
  busy?: boolean;
  /** Below this width each row is a card of label/value pairs. */
  cardsBelow?: Breakpoint;
}

/**
 * Records that are a table where there is room and a list of cards on a phone: a phone shows every
 * column of every row without scrolling sideways (a region a keyboard cannot scroll), each value under
 * its column's name.
 */
export function RecordTable<Row>({ label, columns, rows, rowKey, empty, busy, cardsBelow = 'md' }: Props<Row>) {
  const narrow = useMediaQuery(useTheme().breakpoints.down(cardsBelow), { noSsr: true });
  if (narrow) {
    return (
      <Box component="ul" aria-label={label} aria-busy={busy} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {rows.length === 0 ? (
          <Box component="li" sx={{ px: 2, py: 1.5 }}>
            <Typography color="text.secondary">{empty}</Typography>
          </Box>
        ) : (
          rows.map((row, index) => (
            <Box
              component="li"
              key={rowKey(row, index)}
              sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}
            >
              <Box
                component="dl"
                sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: '4px 12px' }}
              >
                {columns.map((column) => (
                  <Box key={column.key} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {column.label}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                      {column.render(row)}
                    </Typography>
                  </Box>
                ))}
              </Box>
            </Box>
          ))
        )}
      </Box>
    );
  }
  return (
    // Focusable and named: where the columns overflow, the table scrolls sideways and the keyboard must reach it (WCAG 2.1.1).
    <TableContainer role="region" tabIndex={0} aria-label={label}>
      <Table size="small" aria-label={label} aria-busy={busy}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.key} align={column.align}>
                {column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length}>
                <Typography color="text.secondary" sx={{ py: 1 }}>
                  {empty}
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row, index) => (
              <TableRow key={rowKey(row, index)} hover>
                {columns.map((column) => (
                  <TableCell key={column.key} align={column.align} sx={column.sx}>
                    {column.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
