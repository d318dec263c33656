import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useAdminDeleteUserMutation,
  useAdminGetUsersQuery,
  useAdminResetPasswordMutation,
  type UserInfoModel,
} from '../api';
import { BatchCreateDialog } from '../components/BatchCreateDialog';
import { EditUserDialog } from '../components/EditUserDialog';
import { PasswordDialog } from '../components/PasswordDialog';
import { SearchField } from '@/shared/ui/paging/SearchField';
import { userRowId, useUserColumns, type UserActions } from '../components/users.columns';
import { ServerGrid } from '@/shared/ui/grid/ServerGrid';
import { useServerGrid } from '@/shared/ui/grid/useServerGrid';
import { SectionHeader } from '../components/SectionHeader';

/** The columns the server sorts users by (the contract's `sort` enum of adminGetUsers). */
const SORTABLE = ['userName', 'email', 'role', 'lastVisitedUtc', 'registerTimeUtc'] as const;

/**
 * Every account, paged and sorted by the server and narrowed by it to the matches of the search box
 * once typing pauses; by default in registration order. Edit (the row is patched in place), reset
 * the password, delete, or create many at once.
 */
export default function UsersPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const grid = useServerGrid({ sortable: SORTABLE });
  // The server pages the matches too (`search`, beyond GZCTF), so every match is reachable.
  const list = useAdminGetUsersQuery(grid.query, { refetchOnMountOrArgChange: true });

  const [editing, setEditing] = useState<UserInfoModel | null>(null);
  const [batchOpen, setBatchOpen] = useState(false);
  const [newPassword, setNewPassword] = useState<{ userName: string; password: string } | null>(null);
  const [resetPassword] = useAdminResetPasswordMutation();
  const [deleteUser] = useAdminDeleteUserMutation();

  const onResetPassword = useCallback(
    async (user: UserInfoModel) => {
      const userName = user.userName ?? '';
      const confirmed = await confirm({
        title: t('admin:users.resetConfirm.title'),
        message: t('admin:users.resetConfirm.message', { userName }),
        confirmLabel: t('admin:users.resetConfirm.confirm'),
        destructive: true,
      });
      if (!confirmed || !user.id) return;
      try {
        const password = await resetPassword({ userid: user.id }).unwrap();
        setNewPassword({ userName, password });
      } catch {
        // Announced by the notification listener.
      }
    },
    [confirm, resetPassword, t],
  );

  const onDelete = useCallback(
    async (user: UserInfoModel) => {
      const confirmed = await confirm({
        title: t('admin:users.deleteConfirm.title'),
        message: t('admin:users.deleteConfirm.message', { userName: user.userName }),
        confirmLabel: t('admin:action.delete'),
        destructive: true,
      });
      if (!confirmed || !user.id) return;
      // The server refuses to delete yourself or a captain; the listener shows its message.
      await deleteUser({ userid: user.id }).catch(() => undefined);
    },
    [confirm, deleteUser, t],
  );

  const actions = useMemo<UserActions>(
    () => ({
      edit: setEditing,
      resetPassword: (user) => void onResetPassword(user),
      remove: (user) => void onDelete(user),
    }),
    [onResetPassword, onDelete],
  );
  const columns = useUserColumns(actions);

  return (
    <Stack spacing={2}>
      <SectionHeader title={t('admin:section.users')}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
          <SearchField
            label={t('admin:users.search')}
            clearLabel={t('admin:search.clear')}
            value={grid.search}
            onChange={grid.setSearch}
          />
          <Button variant="contained" startIcon={<GroupAddOutlined />} onClick={() => setBatchOpen(true)}>
            {t('admin:users.batchCreate')}
          </Button>
        </Stack>
      </SectionHeader>
      <ServerGrid
        grid={grid}
        label={t('admin:section.users')}
        rows={list.currentData?.data}
        total={list.data?.total ?? list.data?.length}
        loading={list.isFetching}
        columns={columns}
        getRowId={userRowId}
        rowHeight={60}
      />
      {editing && <EditUserDialog key={editing.id} user={editing} onClose={() => setEditing(null)} />}
      {newPassword && <PasswordDialog {...newPassword} onClose={() => setNewPassword(null)} />}
      {batchOpen && <BatchCreateDialog onClose={() => setBatchOpen(false)} />}
    </Stack>
  );
}
