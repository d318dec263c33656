import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Avatar from '@mui/material/Avatar';
import AvatarGroup from '@mui/material/AvatarGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn } from '@/shared/ui/grid/actionsColumn';
import type { TeamInfoModel } from '../api';
import { NameWithAvatar } from './NameWithAvatar';

export interface TeamActions {
  edit: (team: TeamInfoModel) => void;
  setLocked: (team: TeamInfoModel, locked: boolean) => void;
  remove: (team: TeamInfoModel) => void;
}

/** The admin teams table's columns; `actions` must be stable. */
export function useTeamColumns(actions: TeamActions): GridColDef<TeamInfoModel>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<TeamInfoModel>[]>(
    () => [
      {
        field: 'name',
        headerName: t('admin:teams.column.name'),
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => <NameWithAvatar name={row.name ?? ''} avatar={row.avatar} secondary={`#${row.id}`} />,
      },
      {
        field: 'bio',
        headerName: t('admin:teams.column.bio'),
        flex: 1.5,
        minWidth: 200,
        renderCell: ({ row }) => (
          <Typography variant="body2" color={row.bio ? 'text.primary' : 'text.secondary'} noWrap title={row.bio ?? ''}>
            {row.bio || t('admin:teams.noBio')}
          </Typography>
        ),
      },
      {
        field: 'members',
        headerName: t('admin:teams.column.members'),
        width: 200,
        renderCell: ({ row }) => {
          const members = row.members ?? [];
          return (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <AvatarGroup max={5} sx={{ '& .MuiAvatar-root': { width: 28, height: 28, fontSize: 13 } }}>
                {members.map((member) => (
                  <Tooltip
                    key={member.id}
                    title={
                      member.captain ? t('admin:teams.captainName', { userName: member.userName }) : member.userName
                    }
                  >
                    <Avatar src={member.avatar ?? undefined} alt={member.userName ?? ''}>
                      {(member.userName ?? '?').slice(0, 1).toUpperCase()}
                    </Avatar>
                  </Tooltip>
                ))}
              </AvatarGroup>
              <Typography variant="body2" color="text.secondary">
                {members.length}
              </Typography>
            </Stack>
          );
        },
      },
      {
        field: 'locked',
        headerName: t('admin:teams.column.locked'),
        width: 100,
        renderCell: ({ row }) => (
          <Switch
            checked={row.locked}
            onChange={(event) => actions.setLocked(row, event.target.checked)}
            slotProps={{ input: { 'aria-label': t('admin:teams.lockLabel', { name: row.name }) } }}
          />
        ),
      },
      actionsColumn<TeamInfoModel>(t('admin:column.actions'), [
        {
          key: 'edit',
          icon: <EditOutlined />,
          label: (row) => t('admin:teams.action.edit', { name: row.name }),
          onClick: actions.edit,
        },
        {
          key: 'delete',
          icon: <DeleteOutline />,
          label: (row) => t('admin:teams.action.delete', { name: row.name }),
          onClick: actions.remove,
        },
      ]),
    ],
    [t, actions],
  );
}
