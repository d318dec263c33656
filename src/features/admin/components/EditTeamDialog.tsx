import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminUpdateTeamMutation, type TeamInfoModel } from '../api';

/** Contract limits (reference §3.4): name ≤ 20, bio ≤ 72. */
export const TEAM_NAME_MAX = 20;
export const TEAM_BIO_MAX = 72;

/** Renames a team or changes its bio. An empty field keeps the old value (the server's rule). */
export function EditTeamDialog({ team, onClose }: { team: TeamInfoModel; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [name, setName] = useState(team.name ?? '');
  const [bio, setBio] = useState(team.bio ?? '');
  const [update, { isLoading }] = useAdminUpdateTeamMutation();
  const nameTooLong = [...name.trim()].length > TEAM_NAME_MAX;
  const bioTooLong = [...bio].length > TEAM_BIO_MAX;
  const nameMissing = name.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (nameTooLong || bioTooLong || nameMissing) return;
    try {
      await update({ id: team.id, adminTeamModel: { name: name.trim(), bio } }).unwrap();
      onClose();
    } catch {
      // Announced by the notification listener.
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t('admin:teams.edit.title', { name: team.name })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              autoFocus
              label={t('admin:teams.column.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              error={nameTooLong || nameMissing}
              helperText={
                nameMissing
                  ? t('admin:teams.edit.nameRequired')
                  : t('admin:form.length', { length: [...name.trim()].length, max: TEAM_NAME_MAX })
              }
            />
            <TextField
              label={t('admin:teams.column.bio')}
              value={bio}
              onChange={(event) => setBio(event.target.value)}
              multiline
              minRows={2}
              error={bioTooLong}
              helperText={t('admin:form.length', { length: [...bio].length, max: TEAM_BIO_MAX })}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            loading={isLoading}
            disabled={nameTooLong || bioTooLong || nameMissing}
          >
            {t('admin:action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
