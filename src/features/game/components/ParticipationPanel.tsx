import EmojiFlagsOutlined from '@mui/icons-material/EmojiFlagsOutlined';
import LeaderboardOutlined from '@mui/icons-material/LeaderboardOutlined';
import MonitorHeartOutlined from '@mui/icons-material/MonitorHeartOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { useGameLeaveGameMutation, type DetailedGameInfoModel } from '../api';
import { gamePhase } from '../lib/time';
import { useSession } from '@/shared/api/session';
import { JoinGameDialog } from './JoinGameDialog';

const SEVERITY = {
  Pending: 'info',
  Accepted: 'success',
  Rejected: 'error',
  Suspended: 'warning',
} as const;

/**
 * The viewer's standing in the game (reference §5.3) and what they can do: sign in, join, leave
 * while pending or rejected, and go on to the challenges, the scoreboard and (monitors) the monitor.
 */
export function ParticipationPanel({ game, now }: { game: DetailedGameInfoModel; now: number }) {
  const { t } = useTranslation();
  const viewer = useSession();
  const confirm = useConfirm();
  const { pathname } = useLocation();
  const [joining, setJoining] = useState(false);
  const [leave, { isLoading: leaving }] = useGameLeaveGameMutation();
  const phase = gamePhase(game, now);
  const closed = phase === 'ended' && !game.practiceMode;
  const status = game.status;

  async function leaveGame() {
    const confirmed = await confirm({
      title: t('game:leave.title'),
      message: t('game:leave.message', { title: game.title }),
      confirmLabel: t('game:leave.confirm'),
      destructive: true,
    });
    if (confirmed) await leave({ id: game.id }).catch(() => undefined);
  }

  const statusAlert =
    viewer.signedIn && status !== 'Unsubmitted' ? (
      <Alert severity={SEVERITY[status]}>
        {t(`game:participation.${status}`, { team: game.teamName ?? '' })}
        {game.division ? ` ${t('game:participation.division', { division: game.division })}` : ''}
      </Alert>
    ) : null;

  const canJoin = viewer.signedIn && (status === 'Unsubmitted' || status === 'Rejected') && !closed;
  const canLeave = viewer.signedIn && (status === 'Pending' || status === 'Rejected');
  const started = phase !== 'upcoming';

  return (
    <Stack spacing={2}>
      {statusAlert}
      {closed && status === 'Unsubmitted' && <Alert severity="info">{t('game:participation.closed')}</Alert>}
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {!viewer.signedIn && !viewer.isLoading && !closed && (
          <Button variant="contained" component={RouterLink} to={`/account/login?from=${encodeURIComponent(pathname)}`}>
            {t('game:participation.signIn')}
          </Button>
        )}
        {canJoin && (
          <Button variant="contained" onClick={() => setJoining(true)}>
            {status === 'Rejected' ? t('game:participation.joinAgain') : t('game:participation.join')}
          </Button>
        )}
        {status === 'Accepted' && (
          <Button
            variant="contained"
            startIcon={<EmojiFlagsOutlined />}
            component={RouterLink}
            to={`/games/${game.id}/challenges`}
          >
            {t('game:nav.challenges')}
          </Button>
        )}
        {started && (
          <Button
            variant="outlined"
            startIcon={<LeaderboardOutlined />}
            component={RouterLink}
            to={`/games/${game.id}/scoreboard`}
          >
            {t('game:nav.scoreboard')}
          </Button>
        )}
        {viewer.isMonitor && (
          <Button
            variant="outlined"
            startIcon={<MonitorHeartOutlined />}
            component={RouterLink}
            to={`/games/${game.id}/monitor`}
          >
            {t('game:nav.monitor')}
          </Button>
        )}
        {canLeave && (
          <Button color="error" variant="text" loading={leaving} onClick={() => void leaveGame()}>
            {t('game:leave.button')}
          </Button>
        )}
      </Stack>
      {joining && <JoinGameDialog game={game} onClose={() => setJoining(false)} />}
    </Stack>
  );
}
