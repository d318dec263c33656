import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import type { Page } from '@/shared/api/paging';
import { PagedListFooter } from '@/shared/ui/paging/PagedListFooter';
import { SearchField } from '@/shared/ui/paging/SearchField';
import type { PagedListState } from '@/shared/ui/paging/usePagedList';
import { pagerCount } from './pager';

/** An answer as typed: monospace, broken anywhere (flags are long and have no spaces). */
export function Answer({ text }: { text: string }) {
  return (
    <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
      {text}
    </Typography>
  );
}

interface Props {
  list: PagedListState;
  pageSize: number;
  /** The last answer (its total is kept while the next page loads). */
  data: Page<unknown> | undefined;
  /** How many rows the current page holds: a full page means a next one may exist. */
  shown: number;
  error: unknown;
  searchLabel: string;
  /** The list's one-choice filter, left of the search. */
  filters?: ReactNode;
  /** Buttons right of the search (exports). */
  actions?: ReactNode;
  /** The rows: a RecordTable or a list. */
  children: ReactNode;
}

/**
 * The frame every paged monitor list shares: filters, search and actions above (stacked on a phone),
 * the server's error, then the rows with the pager under them.
 */
export function MonitorList({ list, pageSize, data, shown, error, searchLabel, filters, actions, children }: Props) {
  const { t } = useTranslation('monitor');
  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ justifyContent: filters ? 'space-between' : 'flex-end', alignItems: { md: 'center' } }}
      >
        {filters}
        <SearchField label={searchLabel} clearLabel={t('search.clear')} value={list.search} onChange={list.setSearch} />
        {actions}
      </Stack>
      {error ? <Alert severity="info">{getErrorMessage(t, error)}</Alert> : null}
      <Paper variant="outlined">
        {children}
        <PagedListFooter
          list={list}
          total={pagerCount(data, list.page, pageSize)}
          pageSizes={[pageSize]}
          full={shown >= pageSize}
        />
      </Paper>
    </Stack>
  );
}
