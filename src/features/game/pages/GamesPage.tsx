import SportsEsportsOutlined from '@mui/icons-material/SportsEsportsOutlined';
import Grid from '@mui/material/Grid';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useGameGamesQuery } from '../api';
import { GameCard } from '../components/GameCard';
import { LoadError } from '../components/LoadError';
import { useNow } from '../lib/time';

export const GAMES_PER_PAGE = 12;

/** All public games (spec §2 "games"), newest start first, a page at a time. */
export default function GamesPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const now = useNow(30_000);
  const { data, isLoading, error, refetch } = useGameGamesQuery({
    count: GAMES_PER_PAGE,
    skip: (page - 1) * GAMES_PER_PAGE,
  });
  // `total` counts hidden games too (reference §2.5), so a last page can come back short or empty.
  const pages = Math.max(1, Math.ceil((data?.total ?? data?.length ?? 0) / GAMES_PER_PAGE));

  let body;
  if (isLoading) body = <PageSpinner />;
  else if (error && !data) body = <LoadError error={error} onRetry={() => void refetch()} />;
  else if (!data?.data.length)
    body = (
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <SportsEsportsOutlined sx={{ fontSize: 56, color: 'text.secondary', mb: 1 }} aria-hidden />
        <Typography variant="h6" component="h2">
          {t('game:list.empty')}
        </Typography>
      </Paper>
    );
  else
    body = (
      <Grid container spacing={2.5}>
        {data.data.map((game) => (
          <Grid key={game.id} size={{ xs: 12, sm: 6, lg: 4 }}>
            <GameCard game={game} now={now} />
          </Grid>
        ))}
      </Grid>
    );

  return (
    <Stack spacing={3}>
      <div>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          {t('game:list.title')}
        </Typography>
        <Typography color="text.secondary">{t('game:list.subtitle')}</Typography>
      </div>
      {body}
      {pages > 1 && (
        <Pagination
          count={pages}
          page={page}
          onChange={(_event, value) => setPage(value)}
          sx={{ alignSelf: 'center' }}
          getItemAriaLabel={(type, item) =>
            type === 'page' ? t('game:list.page', { page: item }) : t(`game:list.${type}`)
          }
        />
      )}
    </Stack>
  );
}
