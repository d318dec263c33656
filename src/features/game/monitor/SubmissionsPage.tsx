import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { DownloadButton } from '@/shared/ui/DownloadButton';
import { RecordTable, type RecordColumn } from '@/shared/ui/RecordTable';
import { useGameSubmissionsPageQuery, type AnswerResult, type Submission } from '../api';
import { FilteredMonitorList, useFilteredPage } from './FilteredMonitorList';
import { Answer } from './MonitorList';
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

/**
 * `/games/:id/monitor/submissions`: every answer, newest first, one page at a time, filtered by
 * status and searched (team, user, challenge, answer) on the server; judged ones pushed live by the
 * monitor hub; the whole list downloads as a sheet.
 */
export default function SubmissionsPage() {
  const { t, i18n } = useTranslation('monitor');
  const page = useFilteredPage<AnswerResult, Submission>(useGameSubmissionsPageQuery, SUBMISSIONS_PAGE_SIZE);
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
    <FilteredMonitorList
      page={page}
      labels={{ search: t('submission.search'), filter: t('submission.filter'), all: t('submission.all') }}
      values={ANSWER_STATUSES}
      labelOf={(item) => t(`status.${item}`)}
      actions={
        <DownloadButton variant="contained" url={`/api/game/${page.id}/submissionsheet`} fileName="submissions.xlsx">
          {t('submission.export')}
        </DownloadButton>
      }
    >
      <RecordTable
        label={t('submission.list')}
        columns={columns}
        rows={page.rows}
        rowKey={(row, index) => `${row.time}-${row.team}-${index}`}
        empty={page.isFetching ? t('loading') : t('submission.empty')}
        busy={page.isFetching}
      />
    </FilteredMonitorList>
  );
}
