import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import LeaderboardOutlined from '@mui/icons-material/LeaderboardOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { GAME_ENDED, gameErrorCode } from '@/shared/api/errors';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import {
  isBoardRefused,
  useGameDetailsQuery,
  useLiveGame,
  useGameScoreboardQuery,
  type DetailedGameInfoModel,
} from '../api';
import { ChallengeBoard } from '../components/ChallengeBoard';
import { GameMessage } from '../components/GameMessage';
import { LoadError } from '../components/LoadError';
import { NoticePanel } from '../components/NoticePanel';
import { TeamRankCard } from '../components/TeamRankCard';
import { WriteupPanel } from '../components/WriteupPanel';
import { useGamePreviewChallengesQuery, withBoardCounts } from '../previewApi';
import { formatDateTime } from '@/shared/lib/dateTime';
import { countdownParts, gamePhase, useNow } from '../lib/time';
import { useSession } from '@/shared/api/session';

/**
 * After the end (out of practice mode): the board is closed, but a writeup the game asks for may still
 * be handed in, since the server takes it until the writeup deadline (reference §5.2). The deadline
 * comes with the details, which the server refuses after the end, so the panel goes without it and
 * the server's refusal says when it has passed.
 */
function EndedArea({ game, now }: { game: DetailedGameInfoModel; now: number }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack spacing={2}>
      <GameMessage
        title={t('game:play.endedTitle')}
        message={t('game:play.endedMessage', { time: formatDateTime(game.end, i18n.language, 'medium') })}
        action={{ to: `/games/${game.id}/scoreboard`, label: t('game:nav.scoreboard') }}
      />
      {game.writeupRequired && <WriteupPanel gameId={game.id} now={now} />}
    </Stack>
  );
}

/** The board itself, once the team may play: challenges, rank card, writeup and notices. */
function PlayArea({ game, now }: { game: DetailedGameInfoModel; now: number }) {
  const {
    data: details,
    error,
    refetch,
  } = useGameDetailsQuery({ id: game.id }, { pollingInterval: REFRESH_INTERVAL_MS });
  // The server says the game has ended (the end moved earlier, or this clock is behind): as GZCTF
  // does on 10002, the page leaves the board for the end of the game.
  if (gameErrorCode(error) === GAME_ENDED) return <EndedArea game={game} now={now} />;
  // A refused board (a suspended team…) must not stay on screen as if it were live: the refusal
  // re-reads the game (api.ts), whose new status then picks the message; until then the refusal
  // itself is shown. A transient failure keeps the last board, refreshed by the next poll.
  if (!details || (error && isBoardRefused(error)))
    return error ? <LoadError error={error} onRetry={() => void refetch()} /> : <PageSpinner />;
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 8, xl: 9 }}>
        <ChallengeBoard gameId={game.id} details={details} />
      </Grid>
      <Grid size={{ xs: 12, md: 4, xl: 3 }}>
        <Stack spacing={2}>
          <TeamRankCard details={details} teamName={game.teamName ?? ''} />
          {details.writeupRequired && <WriteupPanel gameId={game.id} deadline={details.writeupDeadline} now={now} />}
          <NoticePanel gameId={game.id} />
        </Stack>
      </Grid>
    </Grid>
  );
}

/**
 * An admin who is not playing sees the enabled challenges as players would, marked as a preview:
 * the dialogs are read-only (no instance, no flag input).
 */
function PreviewArea({ gameId }: { gameId: number }) {
  const { t } = useTranslation();
  const { data: listed, error, refetch } = useGamePreviewChallengesQuery({ id: gameId });
  // Solves and bloods come from the (live) scoreboard, refreshed as the player board is.
  const { data: board } = useGameScoreboardQuery({ id: gameId }, { pollingInterval: REFRESH_INTERVAL_MS });
  const challenges = useMemo(() => listed && withBoardCounts(listed, board?.challenges), [listed, board]);
  if (!challenges) return error ? <LoadError error={error} onRetry={() => void refetch()} /> : <PageSpinner />;
  return (
    <Stack spacing={2}>
      <Alert severity="info" data-testid="challenge-preview">
        {t('game:preview.notice')}
      </Alert>
      <ChallengeBoard gameId={gameId} details={{ challenges, rank: null }} preview />
    </Stack>
  );
}

/**
 * A game's challenges (spec §2 "games/{id}/Challenges"), for members of an accepted team while the
 * game runs (or after it, in practice mode). Anyone else learns why not (reference §2.5 checks).
 */
export default function ChallengesPage() {
  const { t, i18n } = useTranslation();
  const id = Number(useParams().id);
  const { pathname } = useLocation();
  const viewer = useSession();
  const now = useNow();
  const { data: game, isLoading, error, refetch } = useLiveGame(id, viewer.isLoading);

  if (viewer.isLoading || isLoading) return <PageSpinner />;
  if (!game) return <LoadError error={error} onRetry={() => void refetch()} />;

  const phase = gamePhase(game, now);
  const back = { to: `/games/${id}`, label: t('game:nav.toGame') };
  let body;
  if (!viewer.signedIn)
    body = (
      <GameMessage
        title={t('game:play.signInTitle')}
        message={t('game:play.signInMessage')}
        action={{ to: `/account/login?from=${encodeURIComponent(pathname)}`, label: t('game:participation.signIn') }}
      />
    );
  else if (game.status !== 'Accepted' && viewer.isAdmin) body = <PreviewArea gameId={id} />;
  else if (game.status === 'Pending' || game.status === 'Rejected' || game.status === 'Suspended')
    // Said as the game's own page says it (its participation panel), not as if the team had not applied.
    body = (
      <GameMessage
        title={t(`game:play.${game.status}Title`)}
        message={t(`game:participation.${game.status}`, { team: game.teamName ?? '' })}
        action={back}
      />
    );
  else if (game.status !== 'Accepted')
    body = (
      <GameMessage title={t('game:play.notAcceptedTitle')} message={t('game:play.notAcceptedMessage')} action={back} />
    );
  else if (phase === 'upcoming') {
    const { days, clock } = countdownParts(game.start - now);
    body = (
      <GameMessage
        title={t('game:play.notStartedTitle')}
        message={t('game:play.notStartedMessage', {
          time: formatDateTime(game.start, i18n.language, 'medium'),
          countdown: days > 0 ? t('game:time.daysAnd', { count: days, clock }) : clock,
        })}
      />
    );
  } else if (phase === 'ended' && !game.practiceMode) body = <EndedArea game={game} now={now} />;
  else body = <PlayArea game={game} now={now} />;

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <div>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700, wordBreak: 'break-word' }}>
            {game.title}
          </Typography>
          <Typography color="text.secondary">{t('game:play.subtitle')}</Typography>
        </div>
        <Stack direction="row" spacing={1}>
          <Button component={RouterLink} to={back.to} startIcon={<ArrowBackOutlined />}>
            {back.label}
          </Button>
          {phase !== 'upcoming' && (
            <Button component={RouterLink} to={`/games/${id}/scoreboard`} startIcon={<LeaderboardOutlined />}>
              {t('game:nav.scoreboard')}
            </Button>
          )}
        </Stack>
      </Stack>
      {body}
    </Stack>
  );
}
