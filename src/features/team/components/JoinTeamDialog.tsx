import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { INVITE_CODE, useTeamAcceptMutation } from '../api';

/** Joins a team with the invite code its captain shared (`{name}:{id}:{token}`). */
export function JoinTeamDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [accept, { isLoading }] = useTeamAcceptMutation();
  const valid = INVITE_CODE.test(code.trim());
  const showError = submitted && !valid;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!valid) return;
    try {
      await accept({ body: code.trim() }).unwrap();
      onClose();
    } catch {
      // Announced by the notification listener (wrong or old code, already a member).
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t('team:join.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('team:join.description')}</DialogContentText>
          <TextField
            autoFocus
            label={t('team:join.code')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            required
            fullWidth
            placeholder="Team:42:0123456789abcdef0123456789abcdef"
            error={showError}
            helperText={showError ? t('team:join.invalid') : t('team:join.hint')}
            slotProps={{ htmlInput: { spellCheck: false, sx: { fontFamily: 'monospace' } } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('team:join.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
