import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { countdownParts, elapsedPercent, formatTime, gamePhase } from '../lib/time';

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
          start: formatTime(game.start, i18n.language),
          end: formatTime(game.end, i18n.language),
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
          {t('game:time.ended', { time: formatTime(game.end, i18n.language) })}
        </Typography>
      )}
    </Stack>
  );
}
