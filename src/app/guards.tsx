import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, Link as RouterLink, useLocation } from 'react-router';
import { useProfile } from '@/features/account/api';
import { GameViewerContext, type GameViewer } from '@/features/game/viewer';
import { TeamViewerContext, type TeamViewer } from '@/features/team/viewer';
import { PageSpinner } from '@/shared/ui/PageSpinner';

/**
 * Layout routes that bring the signed-in user (account feature) to the features that need it, which
 * may not import each other. They are for comfort only: the server checks every call (architecture §6.5).
 */

/**
 * The admin area: admins see it; signed-out visitors are asked to sign in (and come back here);
 * anyone else is told the area is for admins. No admin code loads until the check passes.
 */
export function RequireAdmin() {
  const { t } = useTranslation();
  const { signedIn, isAdmin, isLoading } = useProfile();
  const { pathname, search } = useLocation();
  if (isLoading) return <PageSpinner />;
  if (isAdmin) return <Outlet />;
  const action = signedIn
    ? { to: '/', label: t('admin:guard.home') }
    : { to: `/account/login?from=${encodeURIComponent(pathname + search)}`, label: t('admin:guard.signIn') };
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 10 }}>
      <AdminPanelSettingsOutlined sx={{ fontSize: 56, color: 'text.secondary' }} />
      <Typography variant="h4" component="h1">
        {signedIn ? t('admin:guard.forbiddenTitle') : t('admin:guard.signInTitle')}
      </Typography>
      <Typography color="text.secondary">
        {signedIn ? t('admin:guard.forbiddenMessage') : t('admin:guard.signInMessage')}
      </Typography>
      <Button component={RouterLink} to={action.to} variant="contained">
        {action.label}
      </Button>
    </Stack>
  );
}

/** The team pages learn who is looking (to tell the captain's controls from a member's). */
export function TeamViewerRoute() {
  const { user, signedIn, isLoading } = useProfile();
  const userId = user?.userId ?? null;
  const viewer = useMemo<TeamViewer>(() => ({ isLoading, signedIn, userId }), [isLoading, signedIn, userId]);
  return (
    <TeamViewerContext.Provider value={viewer}>
      <Outlet />
    </TeamViewerContext.Provider>
  );
}

interface ViewerTeams {
  teams: GameViewer['teams'];
  loading: boolean;
}

/**
 * Reads the signed-in user's teams (team feature) for the game pages' join dialog. Loaded lazily, so
 * the team feature's API is not part of the first load of every page.
 */
const GameTeamsSource = lazy(() =>
  import(/* webpackChunkName: "game-teams" */ '@/features/team/api').then(({ useTeamGetTeamsInfoQuery }) => ({
    default: function GameTeamsSource({ onChange }: { onChange: (teams: ViewerTeams) => void }) {
      const { data, isLoading } = useTeamGetTeamsInfoQuery();
      useEffect(() => {
        onChange({ teams: (data ?? []).map(({ id, name }) => ({ id, name: name ?? '' })), loading: isLoading });
      }, [data, isLoading, onChange]);
      return null;
    },
  })),
);

/** The game pages learn who is looking (joining, the monitor tabs, live standings for monitors). */
export function GameViewerRoute() {
  const { user, signedIn, isLoading } = useProfile();
  const [teams, setTeams] = useState<ViewerTeams | null>(null);
  const onTeams = useCallback((value: ViewerTeams) => setTeams(value), []);
  const userId = user?.userId ?? null;
  const userName = user?.userName ?? null;
  const role = user?.role;
  const viewer = useMemo<GameViewer>(
    () => ({
      isLoading,
      signedIn,
      userId,
      userName,
      isMonitor: role === 'Monitor' || role === 'Admin',
      isAdmin: role === 'Admin',
      teams: signedIn ? (teams?.teams ?? []) : [],
      teamsLoading: signedIn && (teams === null || teams.loading),
    }),
    [isLoading, signedIn, userId, userName, role, teams],
  );
  return (
    <GameViewerContext.Provider value={viewer}>
      {signedIn && (
        <Suspense fallback={null}>
          <GameTeamsSource onChange={onTeams} />
        </Suspense>
      )}
      <Outlet />
    </GameViewerContext.Provider>
  );
}
