import RefreshIcon from '@mui/icons-material/Refresh';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { useAdminLogsQuery } from '../api';
import { ServerGrid } from '@/shared/ui/grid/ServerGrid';
import { useServerGrid } from '@/shared/ui/grid/useServerGrid';
import { logRowId, useLogColumns, type LogRow } from '../components/logs.columns';
import { SectionHeader } from '../components/SectionHeader';

export const LOG_LEVELS = ['All', 'Information', 'Warning', 'Error'] as const;
export type LogLevelFilter = (typeof LOG_LEVELS)[number];
export const LOG_PAGE_SIZE = 50;

/**
 * The platform's log (Information and above), newest first, 50 per page, kept live. The server does
 * not say how many there are, so the grid offers a next page while a page comes back full.
 */
export default function LogsPage() {
  const { t } = useTranslation();
  const [level, setLevel] = useState<LogLevelFilter>('All');
  // Another level starts again at the first page.
  const grid = useServerGrid({ filters: [level], pageSize: LOG_PAGE_SIZE });
  const page = grid.paginationModel;
  // Live (spec §7): the first page takes each line the server pushes (admin api.ts), and every page
  // is asked again every 10 s, which also covers a hub that cannot be reached.
  const { currentData, isFetching, refetch } = useAdminLogsQuery(
    { level, count: grid.query.count, skip: grid.query.skip },
    { refetchOnMountOrArgChange: true, pollingInterval: REFRESH_INTERVAL_MS },
  );
  const columns = useLogColumns();
  // Log lines have no id; their place in the list (page, position) is unique within a fetch.
  const rows = useMemo(
    () => (currentData ?? []).map((row, index): LogRow => ({ ...row, rowId: `${page.page}-${index}-${row.time}` })),
    [currentData, page.page],
  );

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
      <ServerGrid
        grid={grid}
        label={t('admin:section.logs')}
        rows={rows}
        // The log is not counted (GZCTF's neither): the pager goes on while pages come back full.
        total={undefined}
        // Only while the page has nothing to show: a poll every 10 s must not cover the rows.
        loading={isFetching && !currentData}
        columns={columns}
        getRowId={logRowId}
        density="compact"
        pageSizeOptions={[LOG_PAGE_SIZE]}
      />
    </Stack>
  );
}
