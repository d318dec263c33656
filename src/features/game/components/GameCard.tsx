import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { BasicGameInfoModel } from '../api';
import { gamePhase } from '../lib/time';
import { GamePhaseChip } from './GamePhaseChip';
import { GamePoster } from './GamePoster';
import { MemberLimit } from './MemberLimit';
import { formatDateTime } from '@/shared/lib/dateTime';

/** One game of the list: poster, title, summary, status, times and member limit; opens the game. */
export function GameCard({ game, now }: { game: BasicGameInfoModel; now: number }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const phase = gamePhase(game, now);
  return (
    <Card component="article" aria-labelledby={titleId} variant="outlined" sx={{ height: '100%' }}>
      <CardActionArea component={RouterLink} to={`/games/${game.id}`} sx={{ height: '100%', alignItems: 'stretch' }}>
        <GamePoster poster={game.poster} title={game.title} />
        <CardContent>
          <Stack spacing={1}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography id={titleId} variant="h6" component="h2" noWrap sx={{ minWidth: 0 }}>
                {game.title}
              </Typography>
              <GamePhaseChip phase={phase} />
            </Stack>
            {game.summary && (
              <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
                {game.summary}
              </Typography>
            )}
            <Typography variant="body2">
              {t('game:time.range', {
                start: formatDateTime(game.start, i18n.language, 'medium'),
                end: formatDateTime(game.end, i18n.language, 'medium'),
              })}
            </Typography>
            <MemberLimit limit={game.limit} />
          </Stack>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
