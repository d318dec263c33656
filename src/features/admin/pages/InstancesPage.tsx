import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { GridOverlay } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { ServerGrid } from '@/shared/ui/grid/ServerGrid';
import { useServerGrid } from '@/shared/ui/grid/useServerGrid';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useAdminDestroyInstanceMutation,
  useAdminInstancesQuery,
  useAdminSearchTeamsListQuery,
  type ChallengeModel,
  type ContainerInstanceModel,
  type TeamInfoModel,
  type TeamModel,
} from '../api';
import {
  instanceEntry,
  instanceRowId,
  useInstanceColumns,
  type InstanceActions,
} from '../components/instances.columns';
import { useDebouncedValue } from '@/shared/lib/useDebouncedValue';
import { SectionHeader } from '../components/SectionHeader';

const NO_TEAMS: TeamInfoModel[] = [];

/** Picks a team to filter on from the server's team search (name contains, or the id). */
function TeamFilterSearch({ onSelect }: { onSelect: (team: TeamModel) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const hint = useDebouncedValue(input.trim());
  const found = useAdminSearchTeamsListQuery({ hint }, { skip: hint === '' });
  const options = hint === '' ? NO_TEAMS : (found.currentData?.data ?? NO_TEAMS);
  return (
    <Autocomplete<TeamInfoModel>
      options={options}
      value={null}
      inputValue={input}
      onInputChange={(_event, value) => setInput(value)}
      onChange={(_event, team) => {
        if (!team) return;
        onSelect({ id: team.id, name: team.name ?? `#${team.id}`, avatar: team.avatar });
        setInput('');
      }}
      // The server already filtered by the hint.
      filterOptions={(items) => items}
      getOptionLabel={(team) => team.name ?? `#${team.id}`}
      getOptionKey={(team) => team.id}
      isOptionEqualToValue={(option, value) => option.id === value.id}
      loading={found.isFetching}
      loadingText={t('admin:instances.searching')}
      noOptionsText={hint === '' ? t('admin:instances.typeToSearch') : t('admin:instances.noTeamFound')}
      sx={{ width: { xs: '100%', sm: 280 } }}
      renderInput={(params) => <TextField {...params} size="small" label={t('admin:instances.teamSearch')} />}
    />
  );
}

/**
 * The game containers that run now (reference §2.2): paged by the server, newest pages on demand,
 * narrowed to one team and/or one challenge by clicking them in a row or searching a team. An admin
 * can copy an entry or destroy a container; the page then asks for its current rows again.
 */
export default function InstancesPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [team, setTeam] = useState<TeamModel | null>(null);
  const [challenge, setChallenge] = useState<ChallengeModel | null>(null);
  const [destroying, setDestroying] = useState<string | null>(null);
  // A new team or challenge filter starts again at the first page.
  const grid = useServerGrid({ filters: [team?.id, challenge?.id] });

  const list = useAdminInstancesQuery(
    { count: grid.query.count, skip: grid.query.skip, teamId: team?.id, challengeId: challenge?.id },
    // Containers come and go (and expire) on their own.
    { refetchOnMountOrArgChange: true, pollingInterval: REFRESH_INTERVAL_MS },
  );
  const [destroy] = useAdminDestroyInstanceMutation();

  const filterTeam = useCallback((next: TeamModel | null) => setTeam(next), []);
  const filterChallenge = useCallback((next: ChallengeModel | null) => setChallenge(next), []);

  const onDestroy = useCallback(
    async (instance: ContainerInstanceModel) => {
      const confirmed = await confirm({
        title: t('admin:instances.destroyConfirm.title'),
        message: t('admin:instances.destroyConfirm.message', {
          entry: instanceEntry(instance),
          team: instance.team?.name ?? '—',
          challenge: instance.challenge?.title ?? '—',
        }),
        confirmLabel: t('admin:instances.destroyConfirm.confirm'),
        destructive: true,
      });
      if (!confirmed) return;
      setDestroying(instance.containerGuid);
      // A refusal is announced by the notification listener.
      await destroy({ id: instance.containerGuid });
      setDestroying(null);
    },
    [confirm, destroy, t],
  );

  const actions = useMemo<InstanceActions>(
    () => ({ filterTeam, filterChallenge, destroy: (instance) => void onDestroy(instance), destroying }),
    [filterTeam, filterChallenge, onDestroy, destroying],
  );
  const columns = useInstanceColumns(actions);

  return (
    <Stack spacing={2}>
      <SectionHeader title={t('admin:section.instances')}>
        <TeamFilterSearch onSelect={filterTeam} />
      </SectionHeader>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        role="group"
        aria-label={t('admin:instances.filters')}
      >
        {team || challenge ? (
          <>
            {team && (
              <Chip
                color="primary"
                label={t('admin:instances.filter.team', { name: team.name })}
                aria-label={t('admin:instances.filter.removeTeam', { name: team.name })}
                onClick={() => filterTeam(null)}
                onDelete={() => filterTeam(null)}
              />
            )}
            {challenge && (
              <Chip
                color="primary"
                label={t('admin:instances.filter.challenge', { title: challenge.title })}
                aria-label={t('admin:instances.filter.removeChallenge', { title: challenge.title })}
                onClick={() => filterChallenge(null)}
                onDelete={() => filterChallenge(null)}
              />
            )}
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('admin:instances.filterHint')}
          </Typography>
        )}
      </Stack>
      <ServerGrid
        grid={grid}
        label={t('admin:section.instances')}
        rows={list.currentData?.data}
        total={list.data?.total ?? list.data?.length}
        // Polling refreshes the rows in place; only a new page or filter shows the loading bar.
        loading={list.isFetching && !list.currentData}
        columns={columns}
        getRowId={instanceRowId}
        rowHeight={60}
        // Says why the table is empty instead of the grid's generic "no rows".
        slots={{ noRowsOverlay: GridOverlay }}
        slotProps={{
          noRowsOverlay: { children: team || challenge ? t('admin:instances.noneMatch') : t('admin:instances.none') },
        }}
      />
    </Stack>
  );
}
