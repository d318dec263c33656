import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Outlet, Link as RouterLink, useLocation } from 'react-router';
import { useSession } from '@/shared/api/session';
import { PageSpinner } from '@/shared/ui/PageSpinner';

/**
 * Layout routes that keep areas from who may not use them. They are for comfort only: the server
 * checks every call (architecture §6.5).
 */

/**
 * The admin area: admins see it; signed-out visitors are asked to sign in (and come back here);
 * anyone else is told the area is for admins. No admin code loads until the check passes.
 */
export function RequireAdmin() {
  const { t } = useTranslation();
  const { signedIn, isAdmin, isLoading } = useSession();
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
