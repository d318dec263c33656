import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import Markdown from '@/shared/ui/Markdown';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useLiveGame } from '../api';
import { GamePhaseChip } from '../components/GamePhaseChip';
import { GamePoster } from '../components/GamePoster';
import { GameTimeline } from '../components/GameTimeline';
import { LoadError } from '../components/LoadError';
import { MemberLimit } from '../components/MemberLimit';
import { ParticipationPanel } from '../components/ParticipationPanel';
import { gamePhase, useNow } from '../lib/time';
import { useSession } from '@/shared/api/session';

/** One game (spec §2 "games/{id}"): what it is, when, who may join, and the viewer's participation. */
export default function GameDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const viewer = useSession();
  const now = useNow();
  // Polled, so a review (accepted, rejected, suspended) shows without a reload.
  const { data: game, isLoading, error, refetch } = useLiveGame(id, viewer.isLoading);

  if (viewer.isLoading || isLoading) return <PageSpinner />;
  if (!game) return <LoadError error={error} onRetry={() => void refetch()} />;
  const divisions = game.divisions ?? [];

  return (
    <Stack spacing={3}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 5 }}>
          <GamePoster poster={game.poster} title={game.title} sx={{ borderRadius: 2 }} />
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
              <Typography variant="h4" component="h1" sx={{ fontWeight: 700, wordBreak: 'break-word' }}>
                {game.title}
              </Typography>
              <GamePhaseChip phase={gamePhase(game, now)} size="medium" />
              {game.practiceMode && <Chip variant="outlined" label={t('game:detail.practice')} />}
            </Stack>
            {game.summary && <Typography color="text.secondary">{game.summary}</Typography>}
            <GameTimeline game={game} now={now} />
            <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
              <MemberLimit limit={game.limit} />
              <Typography variant="body2" color="text.secondary">
                {t('game:detail.teamCount', { count: game.teamCount })}
              </Typography>
            </Stack>
            {divisions.length > 0 && (
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
                <Typography variant="body2" color="text.secondary">
                  {t('game:detail.divisions')}
                </Typography>
                {divisions.map((division) => (
                  <Chip key={division} size="small" label={division} />
                ))}
              </Stack>
            )}
            <ParticipationPanel game={game} now={now} />
          </Stack>
        </Grid>
      </Grid>
      {game.content.trim() && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Markdown source={game.content} />
        </Paper>
      )}
    </Stack>
  );
}
