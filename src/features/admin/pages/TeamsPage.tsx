import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridPaginationModel } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useAdminDeleteTeamMutation,
  useAdminGetTeamsQuery,
  useAdminSearchTeamsListQuery,
  useAdminUpdateTeamMutation,
  type TeamInfoModel,
} from '../api';
import { DataTable, PAGE_SIZE_OPTIONS } from '@/shared/ui/grid/DataTable';
import { EditTeamDialog } from '../components/EditTeamDialog';
import { SearchField } from '../components/SearchField';
import { useTeamColumns, type TeamActions } from '../components/teams.columns';
import { useDebouncedValue } from '../lib/useDebouncedValue';

const NO_TEAMS: TeamInfoModel[] = [];
const teamRowId = (team: TeamInfoModel) => team.id;

/** Every team: paged by the server or searched; lock, edit and delete. */
export default function TeamsPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [page, setPage] = useState<GridPaginationModel>({ page: 0, pageSize: PAGE_SIZE_OPTIONS[0]! });
  const [search, setSearch] = useState('');
  const hint = useDebouncedValue(search.trim());
  const searching = hint !== '';

  const list = useAdminGetTeamsQuery(
    { count: page.pageSize, skip: page.page * page.pageSize },
    { skip: searching, refetchOnMountOrArgChange: true },
  );
  const found = useAdminSearchTeamsListQuery({ hint }, { skip: !searching });
  const current = searching ? found : list;

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
  const all = current.data?.data ?? NO_TEAMS;
  // Search results (at most 30) are paged here; the pages come paged from the server.
  const rows = useMemo(
    () => (searching ? all.slice(page.page * page.pageSize, (page.page + 1) * page.pageSize) : all),
    [all, searching, page],
  );
  const rowCount = searching ? all.length : (list.data?.total ?? list.data?.length ?? 0);

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h5" component="h2">
          {t('admin:section.teams')}
        </Typography>
        <SearchField
          label={t('admin:teams.search')}
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage((previous) => ({ ...previous, page: 0 }));
          }}
        />
      </Stack>
      {searching && (
        <Typography variant="body2" color="text.secondary" role="status">
          {t('admin:search.results', { number: all.length })}
        </Typography>
      )}
      <DataTable
        aria-label={t('admin:section.teams')}
        rows={rows}
        columns={columns}
        getRowId={teamRowId}
        loading={current.isFetching}
        rowHeight={60}
        paginationMode="server"
        rowCount={rowCount}
        paginationModel={page}
        onPaginationModelChange={setPage}
      />
      {editing && <EditTeamDialog key={editing.id} team={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
