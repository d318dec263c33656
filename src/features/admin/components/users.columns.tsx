import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import HighlightOff from '@mui/icons-material/HighlightOff';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfoModel } from '../api';
import { formatDateTime } from '@/shared/lib/dateTime';
import { actionsColumn } from '@/shared/ui/grid/actionsColumn';
import { NameWithAvatar } from './NameWithAvatar';
import { RoleChip } from './RoleChip';

export interface UserActions {
  edit: (user: UserInfoModel) => void;
  resetPassword: (user: UserInfoModel) => void;
  remove: (user: UserInfoModel) => void;
}

export const userRowId = (user: UserInfoModel) => user.id ?? user.userName ?? '';

/**
 * The users table's columns; `actions` must be stable (the grid keeps widths while this is). The
 * fixed widths hold a compact date (and an IPv4 address) plus the sort arrow in every locale; the
 * text columns share what is left, so at 1440 px nothing is clipped.
 */
export function useUserColumns(actions: UserActions): GridColDef<UserInfoModel>[] {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useMemo<GridColDef<UserInfoModel>[]>(
    () => [
      {
        field: 'userName',
        headerName: t('admin:users.column.userName'),
        flex: 1,
        minWidth: 170,
        renderCell: ({ row }) => <NameWithAvatar name={row.userName ?? ''} avatar={row.avatar} />,
      },
      { field: 'email', headerName: t('admin:users.column.email'), flex: 1.3, minWidth: 200 },
      {
        field: 'realName',
        headerName: t('admin:users.column.realNameAndNumber'),
        flex: 0.8,
        minWidth: 170,
        renderCell: ({ row }) => (
          <Stack sx={{ minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {row.realName || '—'}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap>
              {row.stdNumber}
            </Typography>
          </Stack>
        ),
      },
      {
        field: 'role',
        headerName: t('admin:users.column.role'),
        width: 120,
        renderCell: ({ row }) => (row.role ? <RoleChip role={row.role} /> : null),
      },
      {
        field: 'emailConfirmed',
        headerName: t('admin:users.column.emailConfirmed'),
        width: 110,
        align: 'center',
        headerAlign: 'center',
        renderCell: ({ row }) =>
          row.emailConfirmed ? (
            <CheckCircleOutline color="success" titleAccess={t('admin:users.confirmed')} />
          ) : (
            <HighlightOff color="disabled" titleAccess={t('admin:users.unconfirmed')} />
          ),
      },
      {
        field: 'lastVisitedUtc',
        headerName: t('admin:users.column.lastVisit'),
        width: 200,
        renderCell: ({ row }) => (
          <Stack sx={{ minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {formatDateTime(row.lastVisitedUtc, language)}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap sx={{ fontFamily: 'monospace' }}>
              {row.ip ?? ''}
            </Typography>
          </Stack>
        ),
      },
      {
        field: 'registerTimeUtc',
        headerName: t('admin:users.column.registered'),
        width: 180,
        valueFormatter: (value: number | undefined) => formatDateTime(value, language),
      },
      actionsColumn<UserInfoModel>(t('admin:column.actions'), [
        {
          key: 'edit',
          icon: <EditOutlined />,
          label: (row) => t('admin:users.action.edit', { userName: row.userName }),
          onClick: actions.edit,
        },
        {
          key: 'password',
          icon: <LockResetOutlined />,
          label: (row) => t('admin:users.action.resetPassword', { userName: row.userName }),
          onClick: actions.resetPassword,
        },
        {
          key: 'delete',
          icon: <DeleteOutline />,
          label: (row) => t('admin:users.action.delete', { userName: row.userName }),
          onClick: actions.remove,
        },
      ]),
    ],
    [t, language, actions],
  );
}
