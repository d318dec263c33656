import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { textKey } from '@/shared/text/textRef';
import { useAccountChangePasswordMutation } from '../api';
import { confirmError, passwordError } from '../lib/validation';
import { useForm, type FormErrors } from '../lib/useForm';
import { PasswordField } from './PasswordField';
import { NewPasswordFields } from './NewPasswordFields';

type PasswordValues = { old: string; password: string; confirm: string };

const validate = (values: PasswordValues): FormErrors<PasswordValues> => ({
  old: values.old ? undefined : textKey('account:validation.passwordRequired'),
  password: passwordError(values.password),
  confirm: confirmError(values.password, values.confirm),
});

const EMPTY: PasswordValues = { old: '', password: '', confirm: '' };

/** Old password, new password twice. Other sessions of the account are signed out by the server. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [change, { isLoading, error, reset }] = useAccountChangePasswordMutation();
  const form = useForm(EMPTY, validate);

  function close() {
    form.reset(EMPTY);
    reset();
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (!form.check()) return;
    const outcome = await change({ passwordChangeModel: { old: form.values.old, new: form.values.password } });
    if (!('error' in outcome)) close();
  }

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t('account:password.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
            <PasswordField
              autoFocus
              {...form.field('old')}
              label={t('account:form.currentPassword')}
              autoComplete="current-password"
              required
              fullWidth
            />
            <NewPasswordFields
              password={form.field('password')}
              confirm={form.field('confirm')}
              label={t('account:form.newPassword')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('common:dialog.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading} loading={isLoading}>
            {t('account:password.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
