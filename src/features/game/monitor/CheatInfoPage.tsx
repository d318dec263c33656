import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { getErrorMessage } from '@/shared/api/errors';
import { PagedListFooter } from '@/shared/ui/paging/PagedListFooter';
import { usePagedList } from '@/shared/ui/paging/usePagedList';
import { SearchField } from '@/shared/ui/paging/SearchField';
import { useGameCheatInfoPageQuery, type CheatInfoModel } from '../api';
import { pagerCount } from './pager';
import { useSession } from '@/shared/api/session';
import { formatDateTime } from '@/shared/lib/dateTime';

export const CHEAT_PAGE_SIZE = 50;
const NO_RECORDS: CheatInfoModel[] = [];

/**
 * `/games/:id/monitor/cheatinfo`: answers that were another team's dynamic flag (reference §5.7):
 * who submitted it and whose flag it was, newest first, one page at a time, searched (either team,
 * user, challenge, answer) on the server. Acting on them (suspending) is the admin review's job.
 */
export default function CheatInfoPage() {
  const { t, i18n } = useTranslation('monitor');
  const id = Number(useParams().id);
  const viewer = useSession();
  const list = usePagedList([], CHEAT_PAGE_SIZE);
  const settled = list.settledSearch.trim();
  const { data, currentData, error, isFetching } = useGameCheatInfoPageQuery(
    { id, search: settled || undefined, count: list.count, skip: list.skip },
    { skip: !viewer.isMonitor, pollingInterval: REFRESH_INTERVAL_MS },
  );
  if (!viewer.isMonitor) return <Alert severity="warning">{t('monitorsOnly')}</Alert>;
  // Rows only for the page and search asked for; the count stays from the last answer meanwhile.
  const rows = currentData?.items ?? NO_RECORDS;
  const count = pagerCount(data, list.page, CHEAT_PAGE_SIZE);
  const full = rows.length >= CHEAT_PAGE_SIZE;

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <SearchField
          label={t('cheat.search')}
          clearLabel={t('search.clear')}
          value={list.search}
          onChange={list.setSearch}
        />
      </Stack>
      {error ? <Alert severity="info">{getErrorMessage(t, error)}</Alert> : null}
      <Paper variant="outlined">
        {/* Focusable: on a phone the table scrolls sideways, and the keyboard must reach it (WCAG 2.1.1). */}
        <TableContainer role="region" tabIndex={0} aria-label={t('cheat.list')}>
          <Table size="small" aria-label={t('cheat.list')} aria-busy={isFetching}>
            <TableHead>
              <TableRow>
                <TableCell>{t('column.time')}</TableCell>
                <TableCell>{t('cheat.submitTeam')}</TableCell>
                <TableCell>{t('column.user')}</TableCell>
                <TableCell>{t('cheat.ownedTeam')}</TableCell>
                <TableCell>{t('column.challenge')}</TableCell>
                <TableCell>{t('column.answer')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={6}>
                    <Typography color="text.secondary" sx={{ py: 1 }}>
                      {isFetching && !currentData ? t('loading') : t('cheat.empty')}
                    </Typography>
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((row, index) => (
                  <TableRow key={`${row.submission.time}-${index}`} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(row.submission.time, i18n.language, 'seconds')}
                    </TableCell>
                    <TableCell>{row.submitTeam.team.name}</TableCell>
                    <TableCell>{row.submission.user}</TableCell>
                    <TableCell>{row.ownedTeam.team.name}</TableCell>
                    <TableCell>{row.submission.challenge}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                      {row.submission.answer}
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedListFooter list={list} total={count} pageSizes={[CHEAT_PAGE_SIZE]} full={full} />
      </Paper>
    </Stack>
  );
}
