import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { countdownParts, elapsedPercent, gamePhase } from '../lib/time';
import { formatDateTime } from '@/shared/lib/dateTime';

/** Start and end, with a countdown to the start, the time left and a progress bar, or "ended". */
export function GameTimeline({ game, now }: { game: { start: number; end: number }; now: number }) {
  const { t, i18n } = useTranslation();
  const phase = gamePhase(game, now);
  const countdown = (ms: number) => {
    const { days, clock } = countdownParts(ms);
    return days > 0 ? t('game:time.daysAnd', { count: days, clock }) : clock;
  };
  const percent = elapsedPercent(game, now);
  return (
    <Stack spacing={1}>
      <Typography variant="body2">
        {t('game:time.range', {
          start: formatDateTime(game.start, i18n.language, 'medium'),
          end: formatDateTime(game.end, i18n.language, 'medium'),
        })}
      </Typography>
      {phase === 'upcoming' && (
        <Typography sx={{ fontWeight: 600 }} role="timer">
          {t('game:time.startsIn', { time: countdown(game.start - now) })}
        </Typography>
      )}
      {phase === 'running' && (
        <>
          <LinearProgress
            variant="determinate"
            value={percent}
            aria-label={t('game:time.progress', { percent: Math.floor(percent) })}
            sx={{ height: 8, borderRadius: 4 }}
          />
          <Typography variant="body2" sx={{ fontWeight: 600 }} role="timer">
            {t('game:time.left', { time: countdown(game.end - now) })}
          </Typography>
        </>
      )}
      {phase === 'ended' && (
        <Typography variant="body2" color="text.secondary">
          {t('game:time.ended', { time: formatDateTime(game.end, i18n.language, 'medium') })}
        </Typography>
      )}
    </Stack>
  );
}
