import ArrowForwardOutlined from '@mui/icons-material/ArrowForwardOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { useGameRecentGamesQuery } from '../recentApi';
import { gamePhase, useNow, type GamePhase } from '../lib/time';
import { formatDateTime } from '@/shared/lib/dateTime';

/** How many recent games the home page lists; the games page has the rest. */
export const HOME_GAMES = 5;

const PHASE_COLOR: Record<GamePhase, string> = {
  running: 'success.main',
  upcoming: 'info.main',
  ended: 'text.disabled',
};

/**
 * The home page's recent games (`GET /api/game/recent`: running, then upcoming, then ended). Plain
 * boxes and text only (no Chip, Card or Skeleton): the home page's script budget is tight.
 */
export default function RecentGames() {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const { data, isLoading, error } = useGameRecentGamesQuery({ limit: HOME_GAMES });
  if (isLoading) return <Box role="status" aria-label={t('common:loading')} sx={{ height: 96 }} />;
  if (error && !data) return <Typography color="error">{getErrorMessage(t, error)}</Typography>;
  if (!data?.length) return <Typography color="text.secondary">{t('game:recent.empty')}</Typography>;
  return (
    <Stack spacing={1.5}>
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {data.slice(0, HOME_GAMES).map((game) => {
          const phase = gamePhase(game, now);
          return (
            <Box component="li" key={game.id} sx={{ display: 'flex', gap: 1.5, alignItems: 'baseline' }}>
              <Box
                aria-hidden
                sx={{ width: 10, height: 10, borderRadius: '50%', flexShrink: 0, bgcolor: PHASE_COLOR[phase] }}
              />
              <Box sx={{ minWidth: 0 }}>
                <Link component={RouterLink} to={`/games/${game.id}`} underline="hover" sx={{ fontWeight: 600 }}>
                  {game.title}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  {t(`game:phase.${phase}`)}
                  {' · '}
                  {phase === 'upcoming'
                    ? t('game:time.starts', { time: formatDateTime(game.start, i18n.language, 'medium') })
                    : t(phase === 'running' ? 'game:time.ends' : 'game:time.ended', {
                        time: formatDateTime(game.end, i18n.language, 'medium'),
                      })}
                </Typography>
              </Box>
            </Box>
          );
        })}
      </Stack>
      <Button component={RouterLink} to="/games" endIcon={<ArrowForwardOutlined />} sx={{ alignSelf: 'flex-end' }}>
        {t('game:recent.all')}
      </Button>
    </Stack>
  );
}
