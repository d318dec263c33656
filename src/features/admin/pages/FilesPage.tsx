import RefreshIcon from '@mui/icons-material/Refresh';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  assetsUploadBody,
  useAdminFilesQuery,
  useAssetsDeleteMutation,
  useAssetsUploadMutation,
  type LocalFile,
} from '../api';
import { ServerGrid } from '@/shared/ui/grid/ServerGrid';
import { useServerGrid } from '@/shared/ui/grid/useServerGrid';
import { fileRowId, useFileColumns, type FileActions } from '../components/files.columns';
import { SectionHeader } from '../components/SectionHeader';

export const FILES_PAGE_SIZE = 50;

/**
 * The stored files, newest first: open, upload, delete. Deleting drops one reference; a file that
 * something else still uses stays (the server says so).
 */
export default function FilesPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const input = useRef<HTMLInputElement>(null);
  const grid = useServerGrid({ pageSize: FILES_PAGE_SIZE });
  const { data, isFetching, refetch } = useAdminFilesQuery(grid.query, { refetchOnMountOrArgChange: true });
  const [upload, { isLoading: uploading }] = useAssetsUploadMutation();
  const [remove] = useAssetsDeleteMutation();

  const onDelete = useCallback(
    async (file: LocalFile) => {
      const confirmed = await confirm({
        title: t('admin:files.deleteConfirm.title'),
        message: t('admin:files.deleteConfirm.message', { name: file.name }),
        confirmLabel: t('admin:action.delete'),
        destructive: true,
      });
      if (confirmed) await remove({ hash: file.hash }).catch(() => undefined);
    },
    [confirm, remove, t],
  );
  const actions = useMemo<FileActions>(() => ({ remove: (file) => void onDelete(file) }), [onDelete]);
  const columns = useFileColumns(actions);

  return (
    <Stack spacing={2}>
      <SectionHeader title={t('admin:section.files')}>
        <Stack direction="row" spacing={1.5}>
          <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => void refetch()} disabled={isFetching}>
            {t('admin:action.refresh')}
          </Button>
          <Button
            variant="contained"
            startIcon={<UploadOutlined />}
            loading={uploading}
            onClick={() => input.current?.click()}
          >
            {t('admin:files.upload')}
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="files-input"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = '';
              if (files.length > 0) void upload({ body: assetsUploadBody(files) }).catch(() => undefined);
            }}
          />
        </Stack>
      </SectionHeader>
      <ServerGrid
        grid={grid}
        label={t('admin:section.files')}
        rows={data?.data}
        // Not counted (GZCTF's list neither): the pager goes on while pages come back full.
        total={undefined}
        loading={isFetching}
        columns={columns}
        getRowId={fileRowId}
        pageSizeOptions={[FILES_PAGE_SIZE]}
      />
    </Stack>
  );
}
