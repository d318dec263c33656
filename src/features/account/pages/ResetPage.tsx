import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { useAccountPasswordResetMutation } from '../api';
import { AccountCard } from '../components/AccountCard';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { confirmError, passwordError } from '../lib/validation';
import { useForm, type FormErrors } from '../lib/useForm';

type ResetValues = { password: string; confirm: string };

const validate = (values: ResetValues): FormErrors<ResetValues> => ({
  password: passwordError(values.password),
  confirm: confirmError(values.password, values.confirm),
});

/**
 * `/account/reset?token=…&email=…`, the link in the recovery mail: a new password, twice. The two
 * query values go to the server as they came (both base64, reference §3.2).
 */
export default function ResetPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [resetPassword, { isLoading, isSuccess, error, reset }] = useAccountPasswordResetMutation();
  const form = useForm({ password: '', confirm: '' }, validate);

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    await resetPassword({ passwordResetModel: { password: form.values.password, email, rToken: token } });
  }

  const footer = (
    <Link component={RouterLink} to="/account/login" variant="body2">
      {t('account:recovery.backToLogin')}
    </Link>
  );

  if (!token || !email) {
    return (
      <AccountCard title={t('account:reset.title')} footer={footer}>
        <Alert severity="error">{t('account:link.incomplete')}</Alert>
      </AccountCard>
    );
  }

  if (isSuccess) {
    return (
      <AccountCard title={t('account:reset.title')}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="success" role="status" sx={{ width: '100%' }}>
            {t('account:reset.done')}
          </Alert>
          <Button component={RouterLink} to="/account/login" variant="contained">
            {t('account:register.toLogin')}
          </Button>
        </Stack>
      </AccountCard>
    );
  }

  return (
    <AccountCard title={t('account:reset.title')} subtitle={t('account:reset.subtitle')} footer={footer}>
      <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)}>
        {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
        <NewPasswordFields
          password={form.field('password')}
          confirm={form.field('confirm')}
          label={t('account:form.newPassword')}
        />
        <Button type="submit" variant="contained" size="large" disabled={isLoading} loading={isLoading} fullWidth>
          {t('account:reset.submit')}
        </Button>
      </Stack>
    </AccountCard>
  );
}
