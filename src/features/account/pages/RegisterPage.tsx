import HourglassTopOutlined from '@mui/icons-material/HourglassTopOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { useAccountRegisterMutation, type RegisterStatus } from '../api';
import { AccountCard } from '../components/AccountCard';
import { CaptchaSubmit, useCaptcha } from '../components/CaptchaSubmit';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { LIMITS, confirmError, emailError, passwordError, userNameError } from '../lib/validation';
import { useForm, type FormErrors } from '../lib/useForm';

type RegisterValues = { userName: string; email: string; password: string; confirm: string };

function validate(values: RegisterValues): FormErrors<RegisterValues> {
  return {
    userName: userNameError(values.userName),
    email: emailError(values.email),
    password: passwordError(values.password),
    confirm: confirmError(values.password, values.confirm),
  };
}

/** What registration led to, when the visitor is not simply signed in (reference §5.15). */
function RegisterOutcome({ status, email }: { status: Exclude<RegisterStatus, 'LoggedIn'>; email: string }) {
  const { t } = useTranslation();
  const mail = status === 'EmailConfirmationRequired';
  return (
    <AccountCard title={t(mail ? 'account:register.checkMail.title' : 'account:register.awaitAdmin.title')}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="success" icon={mail ? <MarkEmailReadOutlined /> : <HourglassTopOutlined />} role="status">
          <AlertTitle>{t('account:register.done')}</AlertTitle>
          {mail ? t('account:register.checkMail.message', { email }) : t('account:register.awaitAdmin.message')}
        </Alert>
        <Button component={RouterLink} to="/account/login" variant="outlined">
          {t('account:register.toLogin')}
        </Button>
      </Stack>
    </AccountCard>
  );
}

/** `/account/register`: user name, e-mail, password with a strength meter, confirmation, captcha. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [register, { isLoading, error, reset, data }] = useAccountRegisterMutation();
  const { ref: captchaRef, solving, solve } = useCaptcha();
  const form = useForm({ userName: '', email: '', password: '', confirm: '' }, validate);

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    const result = await solve();
    if (!result.ok) return;
    const outcome = await register({
      registerModel: {
        userName: form.values.userName.trim(),
        email: form.values.email.trim(),
        password: form.values.password,
        challenge: result.token,
      },
    });
    // Signed in at once: the profile refreshes (tag invalidation) and the visitor goes home.
    if (outcome.data?.data === 'LoggedIn') void navigate('/', { replace: true });
  }

  if (data && data.data !== 'LoggedIn') return <RegisterOutcome status={data.data} email={form.values.email.trim()} />;

  return (
    <AccountCard
      title={t('account:register.title')}
      subtitle={t('account:register.subtitle')}
      footer={
        <Typography variant="body2">
          {t('account:register.haveAccount')}{' '}
          <Link component={RouterLink} to="/account/login">
            {t('account:register.signIn')}
          </Link>
        </Typography>
      }
    >
      <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
        {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
        <TextField
          {...form.field(
            'userName',
            t('account:form.userNameHint', { min: LIMITS.userName.min, max: LIMITS.userName.max }),
          )}
          label={t('account:form.userName')}
          autoComplete="username"
          required
          fullWidth
        />
        <TextField
          {...form.field('email')}
          type="email"
          label={t('account:form.email')}
          autoComplete="email"
          required
          fullWidth
        />
        <NewPasswordFields
          password={form.field('password')}
          confirm={form.field('confirm')}
          label={t('account:form.password')}
        />
        <CaptchaSubmit captchaRef={captchaRef} busy={isLoading || solving} label={t('account:register.submit')} />
      </Stack>
    </AccountCard>
  );
}
