import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Link as RouterLink, Outlet, useLocation } from 'react-router';
import { useSession } from '@/shared/api/session';
import { useClientConfig } from '@/features/info/api';
import { useCleanCache } from '@/shared/persist/CleanCacheContext';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { ErrorScreen } from '@/shared/ui/ErrorScreen';
import { AccountButton } from './AccountButton';
import { AppearanceButton } from './AppearanceButton';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { Footer } from './Footer';
import { LanguageMenu } from './LanguageMenu';
import { visibleNavItems } from './navigation';
import { RouteFocus } from './RouteFocus';

// Narrow screens only, and only once opened: the drawer's code stays out of the first load.
const NavDrawer = lazy(() => import(/* webpackChunkName: "nav-drawer" */ './NavDrawer'));

/** The platform title as GZCTF shows it: `{title}::CTF`. */
export const platformTitle = (title: string) => `${title}::CTF`;

/** The main region: the skip link's target, and where focus lands after navigation (RouteFocus). */
const MAIN_ID = 'main-content';
/** Under /admin (site administration and game authoring), where the wide tables live. */
const ADMIN_PATH = /^\/admin(\/|$)/i;

const activeLink = { color: 'primary.main', bgcolor: 'action.selected' } as const;

/**
 * The frame every page lives in: app bar (title, navigation by role, language, colour scheme,
 * appearance, sign-in), the routed page behind its own error boundary, and the footer. Below the
 * `md` breakpoint the navigation moves into a drawer behind a menu button.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const { config } = useClientConfig();
  const { isAdmin } = useSession();
  const { pathname } = useLocation();
  const cleanCache = useCleanCache();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerMounted, setDrawerMounted] = useState(false);
  const drawerId = useId();
  const items = visibleNavItems(isAdmin);

  useEffect(() => {
    document.title = platformTitle(String(config.title));
  }, [config.title]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Link
        href={`#${MAIN_ID}`}
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: (theme) => theme.zIndex.appBar + 1,
          p: 1,
          bgcolor: 'background.paper',
          '&:focus': { top: 8 },
        }}
      >
        {t('common:nav.skipToContent')}
      </Link>
      <AppBar
        position="sticky"
        color="default"
        elevation={0}
        sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
      >
        <Toolbar sx={{ gap: { xs: 0, sm: 1 }, px: { xs: 1, sm: 2 } }}>
          <IconButton
            edge="start"
            aria-label={t('common:nav.openMenu')}
            aria-controls={drawerOpen ? drawerId : undefined}
            aria-expanded={drawerOpen}
            onClick={() => {
              setDrawerMounted(true);
              setDrawerOpen(true);
            }}
            sx={{ display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <Link
            component={RouterLink}
            to="/"
            underline="none"
            color="inherit"
            data-testid="app-title"
            sx={{ minWidth: 0, mr: { md: 2 } }}
          >
            <Typography
              variant="h6"
              component="span"
              noWrap
              sx={{ fontWeight: 700, display: 'block', fontSize: { xs: '1.05rem', sm: '1.25rem' } }}
            >
              {config.title}
              <Box component="span" sx={{ color: 'primary.main' }}>
                ::CTF
              </Box>
            </Typography>
          </Link>
          <Box component="nav" aria-label={t('common:nav.main')} sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5 }}>
            {items.map((item) => (
              <Button
                key={item.to}
                component={NavLink}
                to={item.to}
                end={item.to === '/'}
                color="inherit"
                startIcon={<item.icon />}
                sx={{ '&.active': activeLink }}
              >
                {t(`common:nav.${item.label}`)}
              </Button>
            ))}
          </Box>
          <Box sx={{ flex: 1 }} />
          <LanguageMenu />
          <ColorSchemeToggle />
          <AppearanceButton />
          <AccountButton />
        </Toolbar>
      </AppBar>
      {drawerMounted && (
        <Suspense fallback={null}>
          <NavDrawer
            id={drawerId}
            open={drawerOpen}
            title={platformTitle(config.title)}
            items={items}
            onClose={() => setDrawerOpen(false)}
          />
        </Suspense>
      )}
      <Container
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        // The admin grids have many columns: they get a wider page than reading pages.
        maxWidth={ADMIN_PATH.test(pathname) ? 'xl' : 'lg'}
        sx={{ flex: 1, py: 3, outline: 'none' }}
      >
        <ErrorBoundary
          resetKeys={[pathname]}
          fallback={({ error, reset }) => <ErrorScreen error={error} onRetry={reset} onCleanCache={cleanCache} />}
        >
          <Outlet />
        </ErrorBoundary>
      </Container>
      <Footer title={config.title} footerInfo={config.footerInfo} />
      <RouteFocus mainId={MAIN_ID} />
    </Box>
  );
}
