import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { useAccountRecoveryMutation } from '../api';
import { AccountCard } from '../components/AccountCard';
import { CaptchaSubmit, useCaptcha } from '../components/CaptchaSubmit';
import { emailError } from '../lib/validation';
import { useForm, type FormErrors } from '../lib/useForm';

type RecoveryValues = { email: string };

const validate = (values: RecoveryValues): FormErrors<RecoveryValues> => ({ email: emailError(values.email) });

/** `/account/recovery`: e-mail and captcha; the server mails a reset link (when mail is set up). */
export default function RecoveryPage() {
  const { t } = useTranslation();
  const [recover, { isLoading, error, data, reset }] = useAccountRecoveryMutation();
  const { ref: captchaRef, solving, solve } = useCaptcha();
  const form = useForm({ email: '' }, validate);

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    const result = await solve();
    if (!result.ok) return;
    await recover({ recoveryModel: { email: form.values.email.trim(), challenge: result.token } });
  }

  return (
    <AccountCard
      title={t('account:recovery.title')}
      subtitle={t('account:recovery.subtitle')}
      footer={
        <Link component={RouterLink} to="/account/login" variant="body2">
          {t('account:recovery.backToLogin')}
        </Link>
      }
    >
      {data ? (
        <Alert severity="success" role="status">
          {data.title || t('account:recovery.sent')}
        </Alert>
      ) : (
        <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
          {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
          <TextField
            {...form.field('email')}
            type="email"
            label={t('account:form.email')}
            autoComplete="email"
            required
            fullWidth
          />
          <CaptchaSubmit captchaRef={captchaRef} busy={isLoading || solving} label={t('account:recovery.submit')} />
        </Stack>
      )}
    </AccountCard>
  );
}
