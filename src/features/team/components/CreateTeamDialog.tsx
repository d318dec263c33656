import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TEAM_BIO_MAX, TEAM_NAME_MAX, useTeamCreateTeamMutation } from '../api';

const length = (text: string) => [...text].length;

/** A new team with me as captain (a user may captain at most 3; the server says so). */
export function CreateTeamDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [name, setName] = useState('');
  const [bio, setBio] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [create, { isLoading }] = useTeamCreateTeamMutation();
  const nameProblem =
    name.trim() === ''
      ? 'team:form.nameRequired'
      : length(name.trim()) > TEAM_NAME_MAX
        ? 'team:form.tooLong'
        : undefined;
  const bioProblem = length(bio) > TEAM_BIO_MAX ? 'team:form.tooLong' : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (nameProblem || bioProblem) return;
    try {
      await create({ teamUpdateModel: { name: name.trim(), bio: bio.trim() || null } }).unwrap();
      onClose();
    } catch {
      // Announced by the notification listener.
    }
  }

  const showName = submitted || length(name.trim()) > TEAM_NAME_MAX ? nameProblem : undefined;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t('team:create.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('team:create.description')}</DialogContentText>
          <Stack spacing={2}>
            <TextField
              label={t('team:form.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              error={Boolean(showName)}
              helperText={
                showName
                  ? t(showName, { max: TEAM_NAME_MAX })
                  : t('team:form.length', { length: length(name.trim()), max: TEAM_NAME_MAX })
              }
            />
            <TextField
              label={t('team:form.bio')}
              value={bio}
              onChange={(event) => setBio(event.target.value)}
              multiline
              minRows={2}
              error={Boolean(bioProblem)}
              helperText={
                bioProblem
                  ? t(bioProblem, { max: TEAM_BIO_MAX })
                  : t('team:form.length', { length: length(bio), max: TEAM_BIO_MAX })
              }
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('team:create.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
