import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import type { SxProps, Theme } from '@mui/material/styles';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { getErrorMessage } from '@/shared/api/errors';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { DownloadButton } from '@/shared/ui/DownloadButton';
import { PagedListFooter } from '@/shared/ui/paging/PagedListFooter';
import { SearchField } from '@/shared/ui/paging/SearchField';
import { usePagedList } from '@/shared/ui/paging/usePagedList';
import {
  useAdminParticipationMutation,
  useEditGetGameQuery,
  useGameParticipationsPageQuery,
  type ParticipationInfoModel,
  type ParticipationStatus,
} from '../api';
import { ParticipationCard } from '../components/ParticipationCard';
import { useGameId } from '../lib/gameId';
import { PARTICIPATION_STATUSES } from '../lib/participation';

type Filter = ParticipationStatus | 'all';
const NO_PARTICIPATIONS: ParticipationInfoModel[] = [];
const NO_DIVISIONS: string[] = [];

/**
 * A joined row of buttons where it fits; on a phone, where a wrapped row leaves one button dangling
 * with half its joined borders, an even grid of separate buttons instead.
 */
const STATUS_FILTER_SX: SxProps<Theme> = (theme) => ({
  [theme.breakpoints.down('sm')]: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(104px, 1fr))',
    gap: 1,
    // Doubled to outrank the group's own rules that join neighbouring borders.
    '&& .MuiToggleButtonGroup-grouped': {
      m: 0,
      border: `1px solid ${theme.palette.divider}`,
      borderRadius: `${theme.shape.borderRadius}px`,
    },
  },
});

/**
 * `/admin/games/:id/review`: the teams that joined the game, one server page at a time (events have
 * thousands). Filter by status and division, search team names (debounced), accept or reject the
 * pending ones, suspend and reinstate accepted ones (spec §4), and move teams between divisions.
 * Rejecting and suspending ask first. The game's sheets download from here too, with their progress.
 * A change patches its row in place (see `adminParticipation` in ../api.ts), so a row whose new status
 * no longer matches the filter stays until the next refresh.
 */
export default function ReviewPage() {
  const { t } = useTranslation();
  const gameId = useGameId();
  const confirm = useConfirm();
  const divisionLabelId = useId();
  const [filter, setFilter] = useState<Filter>('all');
  const [division, setDivision] = useState('');
  const paging = usePagedList([filter, division]);
  const game = useEditGetGameQuery({ id: gameId }, { skip: Number.isNaN(gameId) });
  const list = useGameParticipationsPageQuery(
    {
      id: gameId,
      count: paging.count,
      skip: paging.skip,
      status: filter === 'all' ? undefined : filter,
      division: division || undefined,
      search: paging.settledSearch.trim() || undefined,
    },
    // Teams keep joining while the page is open (spec §7: data refreshes every 10 s).
    { skip: Number.isNaN(gameId), refetchOnMountOrArgChange: true, pollingInterval: REFRESH_INTERVAL_MS },
  );
  const [edit, { isLoading, originalArgs }] = useAdminParticipationMutation();
  // Only the row being changed is busy, so the other (memoised) cards do not draw again.
  const busyId = isLoading ? originalArgs?.id : undefined;

  const shown = list.data?.items ?? NO_PARTICIPATIONS;
  const total = list.data?.total ?? 0;
  const divisions = game.data?.divisions ?? NO_DIVISIONS;
  const filtered = filter !== 'all' || division !== '' || paging.settledSearch.trim() !== '';

  const onStatus = useCallback(
    (participation: ParticipationInfoModel, status: ParticipationStatus) =>
      void (async () => {
        if (status === 'Rejected' || status === 'Suspended') {
          const confirmed = await confirm({
            title: t(`edit:review.confirm.${status}.title`),
            message: t(`edit:review.confirm.${status}.message`, { team: participation.team.name }),
            confirmLabel: t(`edit:review.action.${status}`),
            destructive: true,
          });
          if (!confirmed) return;
        }
        await edit({ id: participation.id, participationEditModel: { status } }).catch(() => undefined);
      })(),
    [confirm, edit, t],
  );
  const onDivision = useCallback(
    (participation: ParticipationInfoModel, next: string) =>
      void edit({ id: participation.id, participationEditModel: { division: next } }).catch(() => undefined),
    [edit],
  );

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <SearchField value={paging.search} onChange={paging.setSearch} label={t('edit:review.search')} />
        {divisions.length > 0 && (
          <FormControl size="small" sx={{ minWidth: 180 }}>
            <InputLabel id={divisionLabelId}>{t('edit:review.divisionFilter')}</InputLabel>
            <Select
              labelId={divisionLabelId}
              label={t('edit:review.divisionFilter')}
              value={division}
              onChange={(event) => setDivision(event.target.value)}
            >
              <MenuItem value="">{t('edit:review.allDivisions')}</MenuItem>
              {divisions.map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        )}
        <Stack direction="row" spacing={1} sx={{ ml: { md: 'auto' } }}>
          <DownloadButton url={`/api/game/${gameId}/scoreboardsheet`} fileName="scoreboard.xlsx">
            {t('edit:review.scoreboardSheet')}
          </DownloadButton>
          <DownloadButton url={`/api/game/${gameId}/submissionsheet`} fileName="submissions.xlsx">
            {t('edit:review.submissionSheet')}
          </DownloadButton>
        </Stack>
      </Stack>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={filter}
        onChange={(_event, next: Filter | null) => next && setFilter(next)}
        aria-label={t('edit:review.filter')}
        sx={STATUS_FILTER_SX}
      >
        <ToggleButton value="all">{t('edit:review.allStatuses')}</ToggleButton>
        {PARTICIPATION_STATUSES.map((status) => (
          <ToggleButton key={status} value={status}>
            {t(`edit:review.status.${status}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {/* Only a new filter, search or page loads visibly; the periodic refresh happens quietly. */}
      {list.isFetching && !list.currentData ? (
        <LinearProgress aria-label={t('loading')} />
      ) : (
        <Typography variant="body2" color="text.secondary" role="status">
          {t('edit:review.total', { count: total })}
        </Typography>
      )}
      {list.error && <Alert severity="error">{getErrorMessage(t, list.error)}</Alert>}
      {list.isSuccess && shown.length === 0 && (
        <Typography color="text.secondary" role="status">
          {t(filtered ? 'edit:review.noneMatching' : 'edit:review.none')}
        </Typography>
      )}
      <Stack component="ul" spacing={1.5} aria-label={t('edit:review.list')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {shown.map((participation) => (
          <ParticipationCard
            key={participation.id}
            participation={participation}
            divisions={divisions}
            busy={busyId === participation.id}
            onStatus={onStatus}
            onDivision={onDivision}
          />
        ))}
      </Stack>
      {total > 0 && <PagedListFooter list={paging} total={total} />}
    </Stack>
  );
}
