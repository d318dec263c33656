import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TEAM_NAME_MAX, useTeamCreateTeamMutation } from '../api';
import { TeamFields, teamProblems } from './TeamFields';

/** A new team with me as captain (a user may captain at most 3; the server says so). */
export function CreateTeamDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [name, setName] = useState('');
  const [bio, setBio] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [create, { isLoading }] = useTeamCreateTeamMutation();
  const { name: nameProblem, bio: bioProblem } = teamProblems(name, bio);

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

  const showName = submitted || [...name.trim()].length > TEAM_NAME_MAX ? nameProblem : undefined;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t('team:create.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('team:create.description')}</DialogContentText>
          <Stack spacing={2}>
            <TeamFields name={name} bio={bio} onName={setName} onBio={setBio} nameProblem={showName} autoFocus />
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
