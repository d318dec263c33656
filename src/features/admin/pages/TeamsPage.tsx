import Stack from '@mui/material/Stack';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useAdminDeleteTeamMutation,
  useAdminGetTeamsQuery,
  useAdminUpdateTeamMutation,
  type TeamInfoModel,
} from '../api';
import { EditTeamDialog } from '../components/EditTeamDialog';
import { SearchField } from '@/shared/ui/paging/SearchField';
import { useTeamColumns, type TeamActions } from '../components/teams.columns';
import { ServerGrid } from '@/shared/ui/grid/ServerGrid';
import { useServerGrid } from '@/shared/ui/grid/useServerGrid';
import { SectionHeader } from '../components/SectionHeader';

const teamRowId = (team: TeamInfoModel) => team.id;
/** The columns the server sorts teams by (the contract's `sort` enum of adminGetTeams). */
const SORTABLE = ['id', 'name', 'locked'] as const;

/**
 * Every team, paged, searched and sorted by the server (by id unless asked otherwise); lock and edit
 * (the row is patched in place), delete.
 */
export default function TeamsPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const grid = useServerGrid({ sortable: SORTABLE });
  // The server pages the matches too (`search`, beyond GZCTF), so every match is reachable.
  const list = useAdminGetTeamsQuery(grid.query, { refetchOnMountOrArgChange: true });

  const [editing, setEditing] = useState<TeamInfoModel | null>(null);
  const [updateTeam] = useAdminUpdateTeamMutation();
  const [deleteTeam] = useAdminDeleteTeamMutation();

  const onDelete = useCallback(
    async (team: TeamInfoModel) => {
      const confirmed = await confirm({
        title: t('admin:teams.deleteConfirm.title'),
        message: t('admin:teams.deleteConfirm.message', { name: team.name }),
        confirmLabel: t('admin:action.delete'),
        destructive: true,
      });
      if (confirmed) await deleteTeam({ id: team.id }).catch(() => undefined);
    },
    [confirm, deleteTeam, t],
  );

  const actions = useMemo<TeamActions>(
    () => ({
      edit: setEditing,
      setLocked: (team, locked) => void updateTeam({ id: team.id, adminTeamModel: { locked } }).catch(() => undefined),
      remove: (team) => void onDelete(team),
    }),
    [onDelete, updateTeam],
  );
  const columns = useTeamColumns(actions);

  return (
    <Stack spacing={2}>
      <SectionHeader title={t('admin:section.teams')}>
        <SearchField
          label={t('admin:teams.search')}
          clearLabel={t('admin:search.clear')}
          value={grid.search}
          onChange={grid.setSearch}
        />
      </SectionHeader>
      <ServerGrid
        grid={grid}
        label={t('admin:section.teams')}
        rows={list.currentData?.data}
        total={list.data?.total ?? list.data?.length}
        loading={list.isFetching}
        columns={columns}
        getRowId={teamRowId}
        rowHeight={60}
      />
      {editing && <EditTeamDialog key={editing.id} team={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
