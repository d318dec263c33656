import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { useEditAddGameMutation } from '../api';
import { fromLocalInput, toLocalInput } from '../lib/gameForm';

const HOUR = 3_600_000;

/** A new game starts at the next full hour and lasts two days unless the admin says otherwise. */
function defaultTimes(now = Date.now()) {
  const start = Math.ceil(now / HOUR) * HOUR;
  return { start: toLocalInput(start), end: toLocalInput(start + 48 * HOUR) };
}

/**
 * Creates a game from a title and its times (the server makes its key pair); the rest is set on the
 * Info page, where the new game opens.
 */
export function CreateGameDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const navigate = useNavigate();
  const [add, { isLoading, error }] = useEditAddGameMutation();
  const [title, setTitle] = useState('');
  const [times, setTimes] = useState(defaultTimes);
  const [touched, setTouched] = useState(false);

  const start = fromLocalInput(times.start);
  const end = fromLocalInput(times.end);
  const titleError = title.trim() === '' ? t('edit:info.error.titleRequired') : '';
  const startError = Number.isNaN(start) ? t('edit:info.error.dateRequired') : '';
  const endError = Number.isNaN(end)
    ? t('edit:info.error.dateRequired')
    : !startError && end <= start
      ? t('edit:info.error.endBeforeStart')
      : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (titleError || startError || endError) return;
    try {
      const game = await add({ gameInfoModel: { title: title.trim(), start, end } }).unwrap();
      // Leaving the list closes the dialog with it.
      void navigate(`/admin/games/${game.id}/info`);
    } catch {
      // Shown below and announced by the notification listener.
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t('edit:games.create.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              autoFocus
              required
              label={t('edit:info.field.title')}
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              error={touched && !!titleError}
              helperText={touched ? titleError : ''}
            />
            <TextField
              required
              type="datetime-local"
              label={t('edit:info.field.start')}
              value={times.start}
              onChange={(event) => setTimes((previous) => ({ ...previous, start: event.target.value }))}
              error={touched && !!startError}
              helperText={touched ? startError : ''}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              required
              type="datetime-local"
              label={t('edit:info.field.end')}
              value={times.end}
              onChange={(event) => setTimes((previous) => ({ ...previous, end: event.target.value }))}
              error={touched && !!endError}
              helperText={touched ? endError : ''}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('edit:action.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('edit:games.create.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
