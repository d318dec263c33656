import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { Captcha, captchaToken, type CaptchaHandle } from '@/shared/captcha/Captcha';
import { useAccountRecoveryMutation } from '../api';
import { AccountCard } from '../components/AccountCard';
import { emailError } from '../lib/validation';
import { useForm, type FormErrors } from '../lib/useForm';

type RecoveryValues = { email: string };

const validate = (values: RecoveryValues): FormErrors<RecoveryValues> => ({ email: emailError(values.email) });

/** `/account/recovery`: e-mail and captcha; the server mails a reset link (when mail is set up). */
export default function RecoveryPage() {
  const { t } = useTranslation();
  const [recover, { isLoading, error, data, reset }] = useAccountRecoveryMutation();
  const captcha = useRef<CaptchaHandle>(null);
  const [solving, setSolving] = useState(false);
  const form = useForm({ email: '' }, validate);

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    setSolving(true);
    const result = await captchaToken(captcha.current);
    setSolving(false);
    if (!result.ok) return;
    await recover({ recoveryModel: { email: form.values.email.trim(), challenge: result.token } });
  }

  const busy = isLoading || solving;
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
          <Captcha ref={captcha} />
          <Button type="submit" variant="contained" size="large" disabled={busy} loading={busy} fullWidth>
            {t('account:recovery.submit')}
          </Button>
        </Stack>
      )}
    </AccountCard>
  );
}
