import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/shared/ui/CopyButton';

/** Shows a freshly reset password once, with a copy button. */
export function PasswordDialog({
  userName,
  password,
  onClose,
}: {
  userName: string;
  password: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t('admin:users.password.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('admin:users.password.message', { userName })}
        </Alert>
        <TextField
          fullWidth
          label={t('admin:users.password.label')}
          value={password}
          onFocus={(event) => event.target.select()}
          slotProps={{
            htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace', fontSize: 18 } },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <CopyButton text={password} label={t('admin:users.password.copy')} />
                </InputAdornment>
              ),
            },
          }}
        />
        <Alert severity="info" variant="outlined" sx={{ mt: 2 }}>
          {t('admin:users.password.once')}
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('admin:action.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
