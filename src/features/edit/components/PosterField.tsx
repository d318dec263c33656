import UploadOutlined from '@mui/icons-material/UploadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { IMAGE_ACCEPT, isAcceptedImage } from '@/shared/lib/images';
import { posterUploadBody, useEditUpdateGamePosterMutation } from '../api';

/** The server takes posters of at most 3 MiB (the contract's poster upload). */
const MAX_POSTER_BYTES = 3 * 1024 * 1024;

/** The game's poster and a button to replace it; the upload is saved at once, apart from the form. */
export function PosterField({ gameId, poster, title }: { gameId: number; poster: string | null; title: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [upload, { isLoading, error }] = useEditUpdateGamePosterMutation();
  const [problem, setProblem] = useState('');

  async function chosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isAcceptedImage(file)) return setProblem(t('edit:info.poster.wrongType'));
    if (file.size > MAX_POSTER_BYTES) return setProblem(t('edit:info.poster.tooLarge'));
    setProblem('');
    await upload({ id: gameId, body: posterUploadBody(file) }).catch(() => undefined);
  }

  const shownError = problem || (error ? getErrorMessage(t, error) : '');
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2" component="h4">
        {t('edit:info.poster.title')}
      </Typography>
      <Box
        sx={{
          aspectRatio: '16 / 9',
          borderRadius: 1,
          border: 1,
          borderColor: 'divider',
          bgcolor: 'action.hover',
          overflow: 'hidden',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        {poster ? (
          <Box
            component="img"
            src={poster}
            alt={t('edit:games.posterOf', { title })}
            sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
          />
        ) : (
          <Typography color="text.secondary">{t('edit:info.poster.none')}</Typography>
        )}
      </Box>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={IMAGE_ACCEPT}
        hidden
        data-testid="poster-file"
        aria-label={t('edit:info.poster.upload')}
        onChange={(event) => void chosen(event)}
      />
      <Button
        variant="outlined"
        startIcon={<UploadOutlined />}
        loading={isLoading}
        onClick={() => input.current?.click()}
      >
        {t('edit:info.poster.upload')}
      </Button>
      {shownError && <Alert severity="error">{shownError}</Alert>}
    </Stack>
  );
}
