import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { DownloadButton } from '@/shared/ui/DownloadButton';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useGameGameQuery } from '../api';
import { useSession } from '@/shared/api/session';

const TABS = ['events', 'submissions', 'cheatinfo', 'traffic'] as const;

/**
 * The monitor frame (reference §7.4, GZCTF's WithGameMonitor): tabs for the four monitor pages and
 * the scoreboard sheet. Only monitors and admins get past it; the server refuses the others anyway.
 */
export default function MonitorLayout() {
  const { t } = useTranslation('monitor');
  const id = Number(useParams().id);
  const { pathname } = useLocation();
  const viewer = useSession();
  const { data: game } = useGameGameQuery({ id }, { skip: !Number.isInteger(id) || !viewer.isMonitor });
  const current = TABS.find((tab) => pathname.toLowerCase().endsWith(`/monitor/${tab}`)) ?? false;

  if (viewer.isLoading) return <PageSpinner />;
  if (!viewer.isMonitor) {
    return (
      <Stack spacing={2}>
        <Typography variant="h4" component="h1">
          {t('title')}
        </Typography>
        <Alert severity="warning">{viewer.signedIn ? t('monitorsOnly') : t('signInAsMonitor')}</Alert>
      </Stack>
    );
  }

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <Typography variant="h4" component="h1">
          {game ? t('titleOf', { game: game.title }) : t('title')}
        </Typography>
        <DownloadButton url={`/api/game/${id}/scoreboardsheet`} fileName="scoreboard.xlsx">
          {t('scoreboardSheet')}
        </DownloadButton>
      </Stack>
      <Tabs value={current} aria-label={t('tabs')} variant="scrollable" allowScrollButtonsMobile>
        {TABS.map((tab) => (
          <Tab key={tab} value={tab} label={t(`tab.${tab}`)} component={RouterLink} to={tab} />
        ))}
      </Tabs>
      <Outlet />
    </Stack>
  );
}
