import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { formatFileSize } from '@/shared/lib/fileSize';
import { useGameGetWriteupQuery, useGameSubmitWriteupMutation } from '../api';
import { isPdf, WRITEUP_MAX_BYTES, writeupBody } from '../lib/writeup';
import { formatDateTime } from '@/shared/lib/dateTime';
import { LoadError } from './LoadError';

/**
 * The writeup the game asks for (reference §5.2): the organisers' note, the deadline, a PDF upload.
 * `deadline` is unknown after the game's end (it comes with the details, refused then): the panel
 * leaves it out and lets the server's refusal of a late upload say so.
 */
export function WriteupPanel({ gameId, deadline, now }: { gameId: number; deadline?: number; now: number }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);
  const { data, isLoading: loading, error: loadError, refetch } = useGameGetWriteupQuery({ id: gameId });
  const [upload, { isLoading, error, isSuccess, reset }] = useGameSubmitWriteupMutation();
  const [invalid, setInvalid] = useState(false);
  const closed = deadline !== undefined && now > deadline;

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    reset();
    if (!file) return;
    const ok = isPdf(file) && file.size > 0 && file.size <= WRITEUP_MAX_BYTES;
    setInvalid(!ok);
    if (ok) void upload({ id: gameId, body: writeupBody(file) }).catch(() => undefined);
  }

  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Typography id={headingId} variant="h6" component="h2">
          {t('game:writeup.title')}
        </Typography>
        {deadline !== undefined && (
          <Typography variant="body2">
            {t('game:writeup.deadline', { time: formatDateTime(deadline, i18n.language, 'medium') })}
          </Typography>
        )}
        {data?.note && (
          <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
            {data.note}
          </Typography>
        )}
        {/* "Not uploaded" only when the server said so: a failed or pending read proves nothing. */}
        {data ? (
          <Typography variant="body2">
            {data.submitted
              ? t('game:writeup.submitted', { name: data.name, size: formatFileSize(data.fileSize) })
              : t('game:writeup.none')}
          </Typography>
        ) : loading ? (
          <CircularProgress size={24} aria-label={t('common:loading')} sx={{ alignSelf: 'center' }} />
        ) : (
          loadError !== undefined && <LoadError error={loadError} onRetry={() => void refetch()} />
        )}
        <input ref={input} type="file" accept="application/pdf,.pdf" hidden onChange={onFile} />
        <Button
          variant="outlined"
          startIcon={<UploadFileOutlined />}
          loading={isLoading}
          disabled={closed}
          onClick={() => input.current?.click()}
        >
          {data?.submitted ? t('game:writeup.replace') : t('game:writeup.upload')}
        </Button>
        {closed && <Alert severity="info">{t('game:writeup.closed')}</Alert>}
        {invalid && <Alert severity="error">{t('game:writeup.invalid')}</Alert>}
        {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
        {isSuccess && <Alert severity="success">{t('game:writeup.done')}</Alert>}
      </Stack>
    </Paper>
  );
}
