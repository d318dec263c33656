import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { useEditUpdateGameNoticeMutation, type GameNotice } from '../api';
import { MarkdownField } from './MarkdownField';

/** Edits a Normal notice's text; saving publishes it again (the server moves its time to now). */
export function NoticeDialog({ gameId, notice, onClose }: { gameId: number; notice: GameNotice; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [content, setContent] = useState(notice.values[0] ?? '');
  const [touched, setTouched] = useState(false);
  const [update, { isLoading, error }] = useEditUpdateGameNoticeMutation();
  const empty = content.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (empty) return;
    try {
      await update({ id: gameId, noticeId: notice.id, gameNoticeModel: { content } }).unwrap();
      onClose();
    } catch {
      // Shown below and announced by the notification listener.
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t('edit:notices.editTitle')}</DialogTitle>
        <DialogContent>
          <MarkdownField
            label={t('edit:notices.content')}
            value={content}
            onChange={setContent}
            rows={6}
            helperText={touched && empty ? t('edit:notices.required') : undefined}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {getErrorMessage(t, error)}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('edit:action.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading}>
            {t('edit:action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
