import DataUsageOutlined from '@mui/icons-material/DataUsageOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn } from '@/shared/ui/grid/actionsColumn';
import { formatFileSize } from '@/shared/lib/fileSize';
import { useAssetSizeState, useLazyAssetSizeQuery, type LocalFile } from '../api';
import { CopyButton } from '@/shared/ui/CopyButton';
import { VISUALLY_HIDDEN } from '@/shared/ui/visuallyHidden';

export const fileUrl = (file: LocalFile) => `/assets/${file.hash}/${encodeURIComponent(file.name)}`;
export const fileRowId = (file: LocalFile) => file.hash;

/**
 * The stored size, asked from the file itself (`LocalFile` carries only hash and name) when the admin
 * asks for it. A HEAD request per row would cost a page's worth (50) of the per-user request limit
 * (150 a minute) for every page looked at, and the admin's next saves would meet "try later".
 * An answer is kept for the visit, so a size once shown stays shown.
 */
function FileSize({ file }: { file: LocalFile }) {
  const { t } = useTranslation();
  const arg = { hash: file.hash, name: file.name };
  const known = useAssetSizeState(arg);
  const [ask] = useLazyAssetSizeQuery();
  if (known.data != null) return <Typography variant="body2">{formatFileSize(known.data)}</Typography>;
  if (known.data === null) {
    // The server answered without a length.
    return (
      <Typography variant="body2" color="text.disabled">
        <span aria-hidden>—</span>
        <Box component="span" sx={VISUALLY_HIDDEN}>
          {t('admin:files.sizeUnknown', { name: file.name })}
        </Box>
      </Typography>
    );
  }
  // Not asked yet, or the request failed (a rate limit, the network): the button asks (again).
  const label = t('admin:files.showSize', { name: file.name });
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} loading={known.isFetching} onClick={() => void ask(arg, true)}>
        <DataUsageOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

export interface FileActions {
  remove: (file: LocalFile) => void;
}

export function useFileColumns(actions: FileActions): GridColDef<LocalFile>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<LocalFile>[]>(
    () => [
      {
        field: 'name',
        headerName: t('admin:files.column.name'),
        flex: 1,
        minWidth: 200,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
            <InsertDriveFileOutlined fontSize="small" color="action" />
            <Link href={fileUrl(row)} target="_blank" rel="noopener" noWrap title={row.name}>
              {row.name}
            </Link>
          </Stack>
        ),
      },
      {
        field: 'hash',
        headerName: t('admin:files.column.hash'),
        flex: 1,
        minWidth: 220,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
            <Typography variant="body2" noWrap title={row.hash} sx={{ fontFamily: 'monospace' }}>
              {row.hash}
            </Typography>
            <CopyButton text={row.hash} label={t('admin:files.copyHash')} />
          </Stack>
        ),
      },
      {
        field: 'size',
        headerName: t('admin:files.column.size'),
        width: 120,
        renderCell: ({ row }) => <FileSize file={row} />,
      },
      actionsColumn<LocalFile>(t('admin:column.actions'), [
        {
          key: 'delete',
          icon: <DeleteOutline />,
          label: (row) => t('admin:files.delete', { name: row.name }),
          onClick: actions.remove,
        },
      ]),
    ],
    [t, actions],
  );
}
