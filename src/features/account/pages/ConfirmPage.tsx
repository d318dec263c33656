import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import { useSession } from '@/shared/api/session';
import { useAccountMailChangeConfirmMutation } from '../api';
import { LinkOutcome } from '../components/LinkOutcome';
import { loginPath } from '../lib/redirect';

/**
 * `/account/confirm?token=…&email=…`, the link mailed to a new address. The change belongs to the
 * account that asked for it, so the visitor must be signed in; otherwise sign-in comes first and
 * brings them back here.
 */
export default function ConfirmPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const { signedIn, isLoading, isFetching } = useSession();
  const [confirm, state] = useAccountMailChangeConfirmMutation();
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current || !token || !email || !signedIn) return;
    sent.current = true;
    void confirm({ accountVerifyModel: { token, email } });
  }, [confirm, email, signedIn, token]);

  let notice;
  if (!token || !email) notice = <Alert severity="error">{t('account:link.incomplete')}</Alert>;
  else if (!isLoading && !isFetching && !signedIn && state.isUninitialized) {
    notice = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="info" sx={{ width: '100%' }}>
          {t('account:confirm.signInFirst')}
        </Alert>
        <Button component={RouterLink} to={loginPath(pathname + search)} variant="contained">
          {t('account:login.submit')}
        </Button>
      </Stack>
    );
  }

  return (
    <LinkOutcome
      title={t('account:confirm.title')}
      state={state}
      success={t('account:confirm.done')}
      next={{ to: '/account/profile', label: t('account:confirm.toProfile') }}
      notice={notice}
    />
  );
}
