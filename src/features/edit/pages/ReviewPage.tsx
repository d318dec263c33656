import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import {
  useAdminParticipationMutation,
  useEditGetGameQuery,
  useGameParticipationsQuery,
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
 * `/admin/games/:id/review`: the teams that joined the game. Filter by status, accept or reject the
 * pending ones, suspend and reinstate accepted ones (spec §4), and move teams between divisions.
 * Rejecting and suspending ask first.
 */
export default function ReviewPage() {
  const { t } = useTranslation();
  const gameId = useGameId();
  const confirm = useConfirm();
  const [filter, setFilter] = useState<Filter>('all');
  const game = useEditGetGameQuery({ id: gameId }, { skip: Number.isNaN(gameId) });
  const list = useGameParticipationsQuery(
    { id: gameId },
    { skip: Number.isNaN(gameId), refetchOnMountOrArgChange: true },
  );
  const [edit, { isLoading }] = useAdminParticipationMutation();

  const all = list.data ?? NO_PARTICIPATIONS;
  const shown = useMemo(() => (filter === 'all' ? all : all.filter((item) => item.status === filter)), [all, filter]);
  const counts = useMemo(() => {
    const result = new Map<ParticipationStatus, number>();
    for (const item of all) result.set(item.status, (result.get(item.status) ?? 0) + 1);
    return result;
  }, [all]);

  const onStatus = useCallback(
    async (participation: ParticipationInfoModel, status: ParticipationStatus) => {
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
    },
    [confirm, edit, t],
  );
  const onDivision = useCallback(
    (participation: ParticipationInfoModel, division: string) =>
      void edit({ id: participation.id, participationEditModel: { division } }).catch(() => undefined),
    [edit],
  );

  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={filter}
        onChange={(_event, next: Filter | null) => next && setFilter(next)}
        aria-label={t('edit:review.filter')}
        sx={{ flexWrap: 'wrap' }}
      >
        <ToggleButton value="all">{t('edit:review.all', { count: all.length })}</ToggleButton>
        {PARTICIPATION_STATUSES.map((status) => (
          <ToggleButton key={status} value={status}>
            {t(`edit:review.status.${status}`)} ({counts.get(status) ?? 0})
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {list.error && <Alert severity="error">{getErrorMessage(t, list.error)}</Alert>}
      {list.isSuccess && shown.length === 0 && (
        <Typography color="text.secondary" role="status">
          {t(filter === 'all' ? 'edit:review.none' : 'edit:review.noneWithStatus')}
        </Typography>
      )}
      <Stack component="ul" spacing={1.5} aria-label={t('edit:review.list')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {shown.map((participation) => (
          <ParticipationCard
            key={participation.id}
            participation={participation}
            divisions={game.data?.divisions ?? NO_DIVISIONS}
            busy={isLoading}
            onStatus={(item, status) => void onStatus(item, status)}
            onDivision={onDivision}
          />
        ))}
      </Stack>
    </Stack>
  );
}
