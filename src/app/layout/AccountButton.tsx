import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '@/shared/api/session';

/** "Sign in" when signed out; a link to the profile when signed in. */
export function AccountButton() {
  const { t } = useTranslation();
  const { user, signedIn, isLoading } = useSession();
  if (isLoading) return null;
  if (signedIn) {
    const label = user?.userName ? `${t('common:nav.profile')}: ${user.userName}` : t('common:nav.profile');
    return (
      <IconButton component={RouterLink} to="/account/profile" aria-label={label}>
        <AccountCircleOutlined />
      </IconButton>
    );
  }
  return (
    <>
      <Button
        component={RouterLink}
        to="/account/login"
        variant="outlined"
        startIcon={<LoginOutlined />}
        sx={{ display: { xs: 'none', sm: 'inline-flex' }, ml: 0.5, whiteSpace: 'nowrap' }}
      >
        {t('common:nav.signIn')}
      </Button>
      <IconButton
        component={RouterLink}
        to="/account/login"
        aria-label={t('common:nav.signIn')}
        sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
      >
        <LoginOutlined />
      </IconButton>
    </>
  );
}
