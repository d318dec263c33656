import Chip, { type ChipProps } from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { OPERATION_COLOR_VALUES, operationResultColor } from '@/shared/lib/operationResult';
import type { LogMessageModel } from '../api';
import { formatDateTime } from '@/shared/lib/dateTime';

const LEVEL_COLORS: Record<string, ChipProps['color']> = {
  Information: 'info',
  Warning: 'warning',
  Error: 'error',
  Fatal: 'error',
  Critical: 'error',
};

export function LevelChip({ level }: { level: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={LEVEL_COLORS[level] ?? 'default'}
      label={t(`admin:logs.level.${level}`, { defaultValue: level })}
    />
  );
}

/** The operation result, in its colour (spec §3); no result shows gray. */
export function StatusChip({ status }: { status: string | null | undefined }) {
  const { t } = useTranslation();
  const color = OPERATION_COLOR_VALUES[operationResultColor(status)];
  return (
    <Chip
      size="small"
      label={status ? t(`admin:logs.status.${status}`, { defaultValue: status }) : '—'}
      sx={{ color, borderColor: color, bgcolor: 'transparent', fontWeight: 600 }}
      variant="outlined"
    />
  );
}

/** A log line as the grid holds it: with the id the server does not give it. */
export type LogRow = LogMessageModel & { rowId: string };

export const logRowId = (row: LogRow) => row.rowId;

export function useLogColumns(): GridColDef<LogRow>[] {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useMemo<GridColDef<LogRow>[]>(
    () => [
      {
        field: 'time',
        headerName: t('admin:logs.column.time'),
        width: 180,
        valueFormatter: (value: number | undefined) => formatDateTime(value, language, 'seconds'),
      },
      {
        field: 'level',
        headerName: t('admin:logs.column.level'),
        width: 130,
        renderCell: ({ row }) => (row.level ? <LevelChip level={row.level} /> : null),
      },
      { field: 'name', headerName: t('admin:logs.column.user'), width: 140 },
      {
        field: 'ip',
        headerName: t('admin:logs.column.ip'),
        width: 140,
        renderCell: ({ row }) => (
          <Typography variant="body2" sx={{ fontFamily: 'monospace' }} noWrap>
            {row.ip}
          </Typography>
        ),
      },
      {
        field: 'msg',
        headerName: t('admin:logs.column.message'),
        flex: 1,
        minWidth: 260,
        renderCell: ({ row }) => (
          <Typography variant="body2" noWrap title={row.msg ?? ''}>
            {row.msg}
          </Typography>
        ),
      },
      {
        field: 'status',
        headerName: t('admin:logs.column.status'),
        width: 120,
        renderCell: ({ row }) => <StatusChip status={row.status} />,
      },
    ],
    [t, language],
  );
}
