import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { usePagedList } from '@/shared/ui/paging/usePagedList';
import { RecordTable, type RecordColumn } from '@/shared/ui/RecordTable';
import { useGameCheatInfoPageQuery, type CheatInfoModel } from '../api';
import { Answer, MonitorList } from './MonitorList';
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
  const columns: RecordColumn<CheatInfoModel>[] = [
    {
      key: 'time',
      label: t('column.time'),
      render: (row) => formatDateTime(row.submission.time, i18n.language, 'seconds'),
      sx: { whiteSpace: 'nowrap' },
    },
    { key: 'submitTeam', label: t('cheat.submitTeam'), render: (row) => row.submitTeam.team.name },
    { key: 'user', label: t('column.user'), render: (row) => row.submission.user },
    { key: 'ownedTeam', label: t('cheat.ownedTeam'), render: (row) => row.ownedTeam.team.name },
    { key: 'challenge', label: t('column.challenge'), render: (row) => row.submission.challenge },
    { key: 'answer', label: t('column.answer'), render: (row) => <Answer text={row.submission.answer} /> },
  ];

  return (
    <MonitorList
      list={list}
      pageSize={CHEAT_PAGE_SIZE}
      data={data}
      shown={rows.length}
      error={error}
      searchLabel={t('cheat.search')}
    >
      <RecordTable
        label={t('cheat.list')}
        columns={columns}
        rows={rows}
        rowKey={(row, index) => `${row.submission.time}-${index}`}
        empty={isFetching && !currentData ? t('loading') : t('cheat.empty')}
        busy={isFetching}
      />
    </MonitorList>
  );
}
