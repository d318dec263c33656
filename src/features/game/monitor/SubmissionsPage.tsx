import Chip from '@mui/material/Chip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DownloadButton } from '@/shared/ui/DownloadButton';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { usePagedList } from '@/shared/ui/paging/usePagedList';
import { RecordTable, type RecordColumn } from '@/shared/ui/RecordTable';
import { useGameSubmissionsPageQuery, type AnswerResult, type Submission } from '../api';
import { FilterChips } from './FilterChips';
import { Answer, MonitorList } from './MonitorList';
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
  return (
    <Chip
      size="small"
      variant="outlined"
      label={t(`status.${status}`, { defaultValue: status })}
      sx={(theme) => {
        const color = statusColor(status, theme.palette.mode);
        return { color, borderColor: color, fontWeight: 600 };
      }}
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
  const columns: RecordColumn<Submission>[] = [
    {
      key: 'time',
      label: t('column.time'),
      render: (row) => formatDateTime(row.time, i18n.language, 'seconds'),
      sx: { whiteSpace: 'nowrap' },
    },
    { key: 'status', label: t('column.status'), render: (row) => <StatusChip status={row.status} /> },
    { key: 'team', label: t('column.team'), render: (row) => row.team },
    { key: 'user', label: t('column.user'), render: (row) => row.user },
    { key: 'challenge', label: t('column.challenge'), render: (row) => row.challenge },
    { key: 'answer', label: t('column.answer'), render: (row) => <Answer text={row.answer} /> },
  ];

  return (
    <MonitorList
      list={list}
      pageSize={SUBMISSIONS_PAGE_SIZE}
      data={data}
      shown={rows.length}
      error={error}
      searchLabel={t('submission.search')}
      filters={
        <FilterChips
          label={t('submission.filter')}
          allLabel={t('submission.all')}
          values={ANSWER_STATUSES}
          chosen={status}
          onChoose={setStatus}
          labelOf={(item) => t(`status.${item}`)}
        />
      }
      actions={
        <DownloadButton variant="contained" url={`/api/game/${id}/submissionsheet`} fileName="submissions.xlsx">
          {t('submission.export')}
        </DownloadButton>
      }
    >
      <RecordTable
        label={t('submission.list')}
        columns={columns}
        rows={rows}
        rowKey={(row, index) => `${row.time}-${row.team}-${index}`}
        empty={isFetching ? t('loading') : t('submission.empty')}
        busy={isFetching}
      />
    </MonitorList>
  );
}
