import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { useEditGetGameQuery } from '../api';
import { PageNotFound } from '../components/PageNotFound';
import { useGameId } from '../lib/gameId';

/** The sections of one game, in GZCTF's order. */
const GAME_SECTIONS = ['info', 'notices', 'review', 'writeups', 'challenges'] as const;

/**
 * One game's frame: its title, the way back to the games list and a tab per section; the section's
 * page (Info, Notices, Review, Writeups, or the challenge pages) renders below.
 */
export default function GameFramePage() {
  const { t } = useTranslation();
  const id = useGameId();
  const { pathname } = useLocation();
  const game = useEditGetGameQuery({ id }, { skip: Number.isNaN(id) });
  const section = /^\/admin\/games\/[^/]+\/([^/]+)/i.exec(pathname)?.[1]?.toLowerCase();
  const current = GAME_SECTIONS.find((item) => item === section) ?? false;

  // No game has such an id: nothing to load (the sections would skip their queries and spin forever).
  if (Number.isNaN(id)) return <PageNotFound />;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button component={RouterLink} to="/admin/games" startIcon={<ArrowBackOutlined />}>
          {t('edit:frame.back')}
        </Button>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          {game.data ? game.data.title : game.isError ? t('edit:frame.notFound') : <Skeleton width={240} />}
        </Typography>
      </Stack>
      <Box component="nav" aria-label={t('edit:frame.sections')} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          aria-label={t('edit:frame.sections')}
          value={current}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
        >
          {GAME_SECTIONS.map((path) => (
            <Tab
              key={path}
              value={path}
              label={t(`edit:frame.section.${path}`)}
              component={RouterLink}
              to={`/admin/games/${id}/${path}`}
              aria-current={current === path ? 'page' : undefined}
            />
          ))}
        </Tabs>
      </Box>
      <Outlet />
    </Stack>
  );
}
