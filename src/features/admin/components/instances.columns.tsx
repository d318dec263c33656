import DeleteOutline from '@mui/icons-material/DeleteOutline';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn } from '@/shared/ui/grid/actionsColumn';
import { categoryLook } from '@/shared/lib/challengeCategory';
import { formatDateTime } from '@/shared/lib/dateTime';
import { CopyButton } from '@/shared/ui/CopyButton';
import type { ChallengeModel, ContainerInstanceModel, TeamModel } from '../api';
import { NameWithAvatar } from './NameWithAvatar';
import { StopCountdown } from './StopCountdown';

export interface InstanceActions {
  filterTeam: (team: TeamModel) => void;
  filterChallenge: (challenge: ChallengeModel) => void;
  destroy: (instance: ContainerInstanceModel) => void;
  /** The container being destroyed, if any: its action waits. */
  destroying: string | null;
}

export const instanceRowId = (instance: ContainerInstanceModel) => instance.containerGuid;
export const instanceEntry = (instance: ContainerInstanceModel) => `${instance.ip}:${instance.port}`;

/**
 * A cell that narrows the table to what it shows. It takes the grid's roving `tabIndex`, so it is in
 * the tab order only while its cell is the grid's current one (arrow keys, then Tab, then Enter).
 */
function FilterCell({
  label,
  tabIndex,
  onClick,
  children,
}: {
  label: string;
  tabIndex: 0 | -1;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <ButtonBase
      onClick={onClick}
      tabIndex={tabIndex}
      aria-label={label}
      title={label}
      sx={{
        justifyContent: 'flex-start',
        textAlign: 'left',
        borderRadius: 1,
        px: 0.5,
        py: 0.25,
        maxWidth: '100%',
        '&:hover, &.Mui-focusVisible': { bgcolor: 'action.hover' },
      }}
    >
      {children}
    </ButtonBase>
  );
}

/** The admin instances table's columns; `actions` must be stable. */
export function useInstanceColumns(actions: InstanceActions): GridColDef<ContainerInstanceModel>[] {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useMemo<GridColDef<ContainerInstanceModel>[]>(
    () => [
      {
        field: 'team',
        headerName: t('admin:instances.column.team'),
        flex: 1,
        minWidth: 170,
        renderCell: ({ row, tabIndex }) => {
          const team = row.team;
          if (!team) return <Typography color="text.secondary">—</Typography>;
          return (
            <FilterCell
              label={t('admin:instances.filterByTeam', { name: team.name })}
              tabIndex={tabIndex}
              onClick={() => actions.filterTeam(team)}
            >
              <NameWithAvatar name={team.name} avatar={team.avatar} secondary={`#${team.id}`} />
            </FilterCell>
          );
        },
      },
      {
        field: 'challenge',
        headerName: t('admin:instances.column.challenge'),
        flex: 1,
        minWidth: 170,
        renderCell: ({ row, tabIndex }) => {
          const challenge = row.challenge;
          if (!challenge) return <Typography color="text.secondary">—</Typography>;
          const { icon: Icon, color } = categoryLook(challenge.category);
          return (
            <FilterCell
              label={t('admin:instances.filterByChallenge', { title: challenge.title })}
              tabIndex={tabIndex}
              onClick={() => actions.filterChallenge(challenge)}
            >
              <Stack sx={{ minWidth: 0 }}>
                <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
                  {challenge.title}
                </Typography>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <Icon sx={{ color, fontSize: 14 }} aria-hidden />
                  <Typography variant="caption" color="text.secondary" noWrap>
                    {t(`common:category.${challenge.category}`, { defaultValue: challenge.category })}
                  </Typography>
                </Stack>
              </Stack>
            </FilterCell>
          );
        },
      },
      {
        field: 'image',
        headerName: t('admin:instances.column.image'),
        flex: 1,
        minWidth: 160,
        renderCell: ({ row }) => (
          <Typography variant="body2" sx={{ fontFamily: 'monospace' }} noWrap title={row.image}>
            {row.image}
          </Typography>
        ),
      },
      {
        field: 'entry',
        headerName: t('admin:instances.column.entry'),
        width: 200,
        renderCell: ({ row }) => {
          const entry = instanceEntry(row);
          return (
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontFamily: 'monospace' }} noWrap title={entry}>
                {entry}
              </Typography>
              <CopyButton text={entry} label={t('admin:instances.copyEntry', { entry })} />
            </Stack>
          );
        },
      },
      {
        field: 'startedAt',
        headerName: t('admin:instances.column.started'),
        width: 170,
        valueFormatter: (value: number | undefined) => formatDateTime(value, language, 'seconds'),
      },
      {
        field: 'expectStopAt',
        headerName: t('admin:instances.column.stops'),
        width: 150,
        renderCell: ({ row }) => <StopCountdown until={row.expectStopAt} />,
      },
      actionsColumn<ContainerInstanceModel>(t('admin:column.actions'), [
        {
          key: 'destroy',
          icon: <DeleteOutline />,
          label: (row) => t('admin:instances.action.destroy', { entry: instanceEntry(row) }),
          disabled: (row) => actions.destroying === row.containerGuid,
          onClick: actions.destroy,
        },
      ]),
    ],
    [t, language, actions],
  );
}
