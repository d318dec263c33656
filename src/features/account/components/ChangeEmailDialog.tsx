import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { useAccountChangeEmailMutation } from '../api';
import { emailError } from '../lib/validation';
import { useForm, type FormErrors } from '../lib/useForm';

type EmailValues = { email: string };

const validate = (values: EmailValues): FormErrors<EmailValues> => ({ email: emailError(values.email) });

/**
 * A new address; the server mails a confirmation link to it (`/account/confirm`), and only that
 * link changes the address. Without mail confirmation the server says to ask an admin.
 */
export function ChangeEmailDialog({ open, current, onClose }: { open: boolean; current: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [change, { isLoading, error, data, reset }] = useAccountChangeEmailMutation();
  const form = useForm({ email: '' }, validate);

  function close() {
    form.reset({ email: '' });
    reset();
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    await change({ mailChangeModel: { newMail: form.values.email.trim() } });
  }

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t('account:email.title')}</DialogTitle>
        <DialogContent>
          {data ? (
            <Alert severity="success" role="status">
              {data.title || t('account:email.sent')}
            </Alert>
          ) : (
            <Stack spacing={2}>
              <DialogContentText>{t('account:email.explain', { email: current })}</DialogContentText>
              {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
              <TextField
                autoFocus
                {...form.field('email')}
                type="email"
                label={t('account:form.newEmail')}
                autoComplete="email"
                required
                fullWidth
              />
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          {data ? (
            <Button onClick={close} variant="contained">
              {t('account:email.close')}
            </Button>
          ) : (
            <>
              <Button onClick={close}>{t('common:dialog.cancel')}</Button>
              <Button type="submit" variant="contained" disabled={isLoading} loading={isLoading}>
                {t('account:email.submit')}
              </Button>
            </>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
