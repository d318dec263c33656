import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DownloadButton } from '@/shared/ui/DownloadButton';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { getErrorMessage } from '@/shared/api/errors';
import { PagedListFooter } from '@/shared/ui/paging/PagedListFooter';
import { usePagedList } from '@/shared/ui/paging/usePagedList';
import { SearchField } from '@/shared/ui/paging/SearchField';
import { useGameSubmissionsPageQuery, type AnswerResult, type Submission } from '../api';
import { pagerCount } from './pager';
import { FilterChips } from './FilterChips';
import { statusColor } from './statusColors';
import { formatDateTime } from '@/shared/lib/dateTime';

export const SUBMISSIONS_PAGE_SIZE = 50;
export const ANSWER_STATUSES: AnswerResult[] = [
  'Accepted',
  'WrongAnswer',
  'CheatDetected',
  'FlagSubmitted',
  'NotFound',
];

export function StatusChip({ status }: { status: AnswerResult }) {
  const { t } = useTranslation('monitor');
  const color = statusColor(status, useTheme().palette.mode);
  return (
    <Chip
      size="small"
      variant="outlined"
      label={t(`status.${status}`, { defaultValue: status })}
      sx={{ color, borderColor: color, fontWeight: 600 }}
    />
  );
}

const NO_SUBMISSIONS: Submission[] = [];

/**
 * `/games/:id/monitor/submissions`: every answer, newest first, one page at a time, filtered by
 * status and searched (team, user, challenge, answer) on the server; judged ones pushed live by the
 * monitor hub; the whole list downloads as a sheet.
 */
export default function SubmissionsPage() {
  const { t, i18n } = useTranslation('monitor');
  const id = Number(useParams().id);
  const [status, setStatus] = useState<AnswerResult | null>(null);
  const list = usePagedList([status], SUBMISSIONS_PAGE_SIZE);
  const settled = list.settledSearch.trim();
  const { data, currentData, error, isFetching } = useGameSubmissionsPageQuery(
    {
      id,
      type: status ?? undefined,
      search: settled || undefined,
      count: list.count,
      skip: list.skip,
    },
    { pollingInterval: REFRESH_INTERVAL_MS },
  );
  // Rows only for the page and filters asked for; the count stays from the last answer meanwhile.
  const rows = currentData?.items ?? NO_SUBMISSIONS;
  const count = pagerCount(data, list.page, SUBMISSIONS_PAGE_SIZE);
  const full = rows.length >= SUBMISSIONS_PAGE_SIZE;

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <FilterChips
          label={t('submission.filter')}
          allLabel={t('submission.all')}
          values={ANSWER_STATUSES}
          chosen={status}
          onChoose={setStatus}
          labelOf={(item) => t(`status.${item}`)}
        />
        <SearchField
          label={t('submission.search')}
          clearLabel={t('search.clear')}
          value={list.search}
          onChange={list.setSearch}
        />
        <DownloadButton variant="contained" url={`/api/game/${id}/submissionsheet`} fileName="submissions.xlsx">
          {t('submission.export')}
        </DownloadButton>
      </Stack>
      {error ? <Alert severity="info">{getErrorMessage(t, error)}</Alert> : null}
      <Paper variant="outlined">
        {/* Focusable: on a phone the table scrolls sideways, and the keyboard must reach it (WCAG 2.1.1). */}
        <TableContainer role="region" tabIndex={0} aria-label={t('submission.list')}>
          <Table size="small" aria-label={t('submission.list')} aria-busy={isFetching}>
            <TableHead>
              <TableRow>
                <TableCell>{t('column.time')}</TableCell>
                <TableCell>{t('column.status')}</TableCell>
                <TableCell>{t('column.team')}</TableCell>
                <TableCell>{t('column.user')}</TableCell>
                <TableCell>{t('column.challenge')}</TableCell>
                <TableCell>{t('column.answer')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={6}>
                    <Typography color="text.secondary" sx={{ py: 1 }}>
                      {isFetching ? t('loading') : t('submission.empty')}
                    </Typography>
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((row, index) => (
                  <TableRow key={`${row.time}-${row.team}-${index}`} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(row.time, i18n.language, 'seconds')}
                    </TableCell>
                    <TableCell>
                      <StatusChip status={row.status} />
                    </TableCell>
                    <TableCell>{row.team}</TableCell>
                    <TableCell>{row.user}</TableCell>
                    <TableCell>{row.challenge}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{row.answer}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedListFooter list={list} total={count} pageSizes={[SUBMISSIONS_PAGE_SIZE]} full={full} />
      </Paper>
    </Stack>
  );
}
