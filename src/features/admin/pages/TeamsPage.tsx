import Stack from '@mui/material/Stack';
import type { GridPaginationModel } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useAdminDeleteTeamMutation,
  useAdminGetTeamsQuery,
  useAdminUpdateTeamMutation,
  type TeamInfoModel,
} from '../api';
import { PAGE_SIZE_OPTIONS } from '@/shared/ui/grid/DataTable';
import { EditTeamDialog } from '../components/EditTeamDialog';
import { SearchField } from '@/shared/ui/paging/SearchField';
import { useTeamColumns, type TeamActions } from '../components/teams.columns';
import { useDebouncedValue } from '@/shared/lib/useDebouncedValue';
import { SearchedGrid } from '../components/SearchedGrid';
import { SectionHeader } from '../components/SectionHeader';

const teamRowId = (team: TeamInfoModel) => team.id;

/** Every team, paged and searched by the server; lock and edit (the row is patched in place), delete. */
export default function TeamsPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [page, setPage] = useState<GridPaginationModel>({ page: 0, pageSize: PAGE_SIZE_OPTIONS[0]! });
  const [search, setSearch] = useState('');
  const hint = useDebouncedValue(search.trim());
  const searching = hint !== '';

  // The server pages the matches too (`search`, beyond GZCTF), so every match is reachable.
  const list = useAdminGetTeamsQuery(
    { count: page.pageSize, skip: page.page * page.pageSize, search: searching ? hint : undefined },
    { refetchOnMountOrArgChange: true },
  );

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
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage((previous) => ({ ...previous, page: 0 }));
          }}
        />
      </SectionHeader>
      <SearchedGrid
        label={t('admin:section.teams')}
        list={list}
        searching={searching}
        columns={columns}
        getRowId={teamRowId}
        page={page}
        onPageChange={setPage}
      />
      {editing && <EditTeamDialog key={editing.id} team={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
