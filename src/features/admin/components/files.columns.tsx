import DeleteOutline from '@mui/icons-material/DeleteOutline';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn } from '@/shared/ui/grid/actionsColumn';
import { formatFileSize } from '@/shared/lib/fileSize';
import { useAssetSizeQuery, type LocalFile } from '../api';
import { CopyButton } from '@/shared/ui/CopyButton';

export const fileUrl = (file: LocalFile) => `/assets/${file.hash}/${encodeURIComponent(file.name)}`;
export const fileRowId = (file: LocalFile) => file.hash;

/** The stored size, asked from the file itself (the list does not carry it). */
function FileSize({ file }: { file: LocalFile }) {
  const { data } = useAssetSizeQuery({ hash: file.hash, name: file.name });
  return (
    <Typography variant="body2" color={data == null ? 'text.disabled' : 'text.primary'}>
      {data == null ? '—' : formatFileSize(data)}
    </Typography>
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
