import RefreshIcon from '@mui/icons-material/Refresh';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { GridPaginationModel } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminLogsQuery } from '../api';
import { DataTable } from '@/shared/ui/grid/DataTable';
import { logRowId, useLogColumns, type LogRow } from '../components/logs.columns';
import { SectionHeader } from '../components/SectionHeader';

export const LOG_LEVELS = ['All', 'Information', 'Warning', 'Error'] as const;
export type LogLevelFilter = (typeof LOG_LEVELS)[number];
export const LOG_PAGE_SIZE = 50;

/**
 * The platform's log (Information and above), newest first, 50 per page. The server does not say how
 * many there are, so the grid offers a next page while a page comes back full.
 */
export default function LogsPage() {
  const { t } = useTranslation();
  const [level, setLevel] = useState<LogLevelFilter>('All');
  const [page, setPage] = useState<GridPaginationModel>({ page: 0, pageSize: LOG_PAGE_SIZE });
  const { data, isFetching, refetch } = useAdminLogsQuery(
    { level, count: page.pageSize, skip: page.page * page.pageSize },
    { refetchOnMountOrArgChange: true },
  );
  const columns = useLogColumns();
  // Log lines have no id; their place in the list (page, position) is unique within a fetch.
  const rows = useMemo(
    () => (data ?? []).map((row, index): LogRow => ({ ...row, rowId: `${page.page}-${index}-${row.time}` })),
    [data, page.page],
  );
  const hasNextPage = (data?.length ?? 0) >= page.pageSize;
  // Unknown until a page comes back short; then the count is known up to that page.
  const rowCount = isFetching || hasNextPage ? -1 : page.page * page.pageSize + (data?.length ?? 0);

  return (
    <Stack spacing={2}>
      <SectionHeader title={t('admin:section.logs')}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={level}
            aria-label={t('admin:logs.levelFilter')}
            onChange={(_event, value: LogLevelFilter | null) => {
              if (!value) return;
              setLevel(value);
              setPage((previous) => ({ ...previous, page: 0 }));
            }}
          >
            {LOG_LEVELS.map((item) => (
              <ToggleButton key={item} value={item}>
                {t(`admin:logs.level.${item}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => void refetch()} disabled={isFetching}>
            {t('admin:action.refresh')}
          </Button>
        </Stack>
      </SectionHeader>
      <DataTable
        aria-label={t('admin:section.logs')}
        rows={rows}
        columns={columns}
        getRowId={logRowId}
        loading={isFetching}
        density="compact"
        paginationMode="server"
        rowCount={rowCount}
        paginationMeta={{ hasNextPage }}
        pageSizeOptions={[LOG_PAGE_SIZE]}
        paginationModel={page}
        onPaginationModelChange={setPage}
      />
    </Stack>
  );
}
