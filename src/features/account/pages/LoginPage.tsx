import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { textKey } from '@/shared/text/textRef';
import { useSession } from '@/shared/api/session';
import { useAccountLogInMutation } from '../api';
import { AccountCard } from '../components/AccountCard';
import { CaptchaSubmit, useCaptcha } from '../components/CaptchaSubmit';
import { PasswordField } from '../components/PasswordField';
import { safeRedirect } from '../lib/redirect';
import { useForm, type FormErrors } from '../lib/useForm';

type LoginValues = { userName: string; password: string };

function validate(values: LoginValues): FormErrors<LoginValues> {
  return {
    userName: values.userName.trim() ? undefined : textKey('account:validation.loginRequired'),
    password: values.password ? undefined : textKey('account:validation.passwordRequired'),
  };
}

/** `/account/login`: user name or e-mail and password, a captcha when configured, then back to `from`. */
export default function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('from'));
  const { signedIn, isFetching } = useSession();
  const [logIn, { isLoading: signingIn, error, reset }] = useAccountLogInMutation();
  const { ref: captchaRef, solving, solve } = useCaptcha();
  const form = useForm({ userName: '', password: '' }, validate);

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    const result = await solve();
    if (!result.ok) return;
    // Success invalidates the profile; once it says who is signed in, the check below moves on.
    await logIn({
      loginModel: { userName: form.values.userName.trim(), password: form.values.password, challenge: result.token },
    });
  }

  // Signed in (just now, or already: a bookmark, the back button): on to `from`, with the profile
  // already known there, so a guarded page does not bounce back here.
  if (signedIn && !isFetching && !signingIn) return <Navigate to={target} replace />;

  return (
    <AccountCard
      title={t('account:login.title')}
      subtitle={t('account:login.subtitle')}
      footer={
        <>
          <Typography variant="body2">
            {t('account:login.noAccount')}{' '}
            <Link component={RouterLink} to="/account/register">
              {t('account:login.register')}
            </Link>
          </Typography>
          <Link component={RouterLink} to="/account/recovery" variant="body2">
            {t('account:login.forgot')}
          </Link>
        </>
      }
    >
      <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
        {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
        <TextField
          {...form.field('userName')}
          label={t('account:form.userNameOrEmail')}
          autoComplete="username"
          required
          fullWidth
        />
        <PasswordField
          {...form.field('password')}
          label={t('account:form.password')}
          autoComplete="current-password"
          required
          fullWidth
        />
        <CaptchaSubmit captchaRef={captchaRef} busy={signingIn || solving} label={t('account:login.submit')} />
      </Stack>
    </AccountCard>
  );
}
