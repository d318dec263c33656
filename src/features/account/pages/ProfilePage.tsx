import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import MailOutlined from '@mui/icons-material/MailOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useSession, type ProfileUserInfoModel } from '@/shared/api/session';
import { useAccountLogOutMutation } from '../api';
import { AvatarPicker } from '../components/AvatarPicker';
import { ChangeEmailDialog } from '../components/ChangeEmailDialog';
import { ChangePasswordDialog } from '../components/ChangePasswordDialog';
import { ProfileForm, profileValues } from '../components/ProfileForm';
import { loginPath } from '../lib/redirect';

interface AccountSummaryProps {
  user: ProfileUserInfoModel;
  onSignOut: () => void;
  signingOut: boolean;
}

function AccountSummary({ user, onSignOut, signingOut }: AccountSummaryProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'email' | 'password' | null>(null);
  const name = user.userName ?? '';

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <AvatarPicker src={user.avatar} name={name} />
        <Stack spacing={0.5} sx={{ alignItems: 'center', minWidth: 0, maxWidth: '100%' }}>
          <Typography variant="h6" component="p" sx={{ wordBreak: 'break-word' }}>
            {name}
          </Typography>
          {user.role && (
            <Chip
              size="small"
              label={t(`common:role.${user.role}`)}
              color={user.role === 'User' ? 'default' : 'primary'}
            />
          )}
        </Stack>
      </Stack>
      <Divider sx={{ my: 2.5 }} />
      <Stack spacing={0.5} sx={{ mb: 2 }}>
        <Typography variant="caption" color="text.secondary">
          {t('account:form.email')}
        </Typography>
        <Typography sx={{ wordBreak: 'break-all' }} data-testid="profile-email">
          {user.email}
        </Typography>
      </Stack>
      <Stack spacing={1}>
        <Button variant="outlined" startIcon={<MailOutlined />} onClick={() => setDialog('email')}>
          {t('account:email.open')}
        </Button>
        <Button variant="outlined" startIcon={<LockResetOutlined />} onClick={() => setDialog('password')}>
          {t('account:password.open')}
        </Button>
        <Button
          color="error"
          startIcon={<LogoutOutlined />}
          disabled={signingOut}
          loading={signingOut}
          onClick={onSignOut}
        >
          {t('account:profile.signOut')}
        </Button>
      </Stack>
      <ChangeEmailDialog open={dialog === 'email'} current={user.email ?? ''} onClose={() => setDialog(null)} />
      <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
    </Paper>
  );
}

/** `/account/profile`: avatar, profile fields, e-mail and password changes, sign-out. Signed-in only. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { user, isLoading, isFetching } = useSession();
  const [logOut, { isLoading: signingOut }] = useAccountLogOutMutation();
  // Kept here, not read from the call's state: signing out drops the whole API cache (session.ts).
  const [signedOut, setSignedOut] = useState(false);

  // Signed out on purpose: home, not the sign-in page the guard below would pick.
  if (signedOut) return <Navigate to="/" replace />;
  if (!user) {
    // Still asking (or asking again after signing in): wait before sending anyone to sign in.
    if (isLoading || isFetching) return <PageSpinner />;
    return <Navigate to={loginPath('/account/profile')} replace />;
  }

  const initial = profileValues(user);
  return (
    <Stack spacing={3} sx={{ py: { xs: 1, md: 3 } }}>
      <Stack spacing={0.5}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          {t('account:profile.title')}
        </Typography>
        <Typography color="text.secondary">{t('account:profile.subtitle')}</Typography>
      </Stack>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 4 }}>
          <AccountSummary
            user={user}
            onSignOut={() =>
              logOut()
                .unwrap()
                .then(
                  () => setSignedOut(true),
                  // A failure is announced by the notification listener.
                  () => undefined,
                )
            }
            signingOut={signingOut}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <Paper variant="outlined" sx={{ p: 3 }}>
            <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
              {t('account:profile.details')}
            </Typography>
            <ProfileForm key={JSON.stringify(initial)} initial={initial} />
          </Paper>
        </Grid>
      </Grid>
    </Stack>
  );
}
