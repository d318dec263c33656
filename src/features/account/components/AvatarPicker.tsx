import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';
import { formatFileSize } from '@/shared/lib/fileSize';
import { translateText } from '@/shared/text/textRef';
import { ImageFileButton } from '@/shared/ui/ImageFileButton';
import { useAvatarUpload } from '../api';
import { avatarProblem, MAX_AVATAR_BYTES } from '../lib/avatar';

/** The avatar, replaced by choosing a file or dropping one on it; checked before it is sent. */
export function AvatarPicker({ src, name }: { src: string | null | undefined; name: string }) {
  const { t } = useTranslation();
  const [upload, { isLoading, error, reset }] = useAvatarUpload();
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  function choose(file: File | undefined) {
    reset();
    if (!file) return;
    const found = avatarProblem(file);
    setProblem(found ? translateText(t, found) : null);
    if (!found) void upload(file);
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  }

  const message = problem ?? (error ? getErrorMessage(t, error) : null);
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
      <Box
        data-testid="avatar-drop"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        sx={{
          position: 'relative',
          borderRadius: '50%',
          outline: dragging ? 2 : 0,
          outlineStyle: 'dashed',
          outlineColor: 'primary.main',
          outlineOffset: 4,
        }}
      >
        <Avatar
          src={src ?? undefined}
          alt={t('account:avatar.alt', { name })}
          sx={{ width: 112, height: 112, fontSize: 44 }}
        >
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        {isLoading && (
          <CircularProgress
            size={120}
            thickness={2}
            aria-label={t('account:avatar.uploading')}
            sx={{ position: 'absolute', top: -4, left: -4 }}
          />
        )}
      </Box>
      <ImageFileButton
        variant="outlined"
        size="small"
        startIcon={<PhotoCameraOutlined />}
        disabled={isLoading}
        inputTestId="avatar-input"
        onFile={choose}
      >
        {t('account:avatar.change')}
      </ImageFileButton>
      <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center' }}>
        {t('account:avatar.hint', { limit: formatFileSize(MAX_AVATAR_BYTES) })}
      </Typography>
      {message && (
        <Alert severity="error" sx={{ width: '100%' }}>
          {message}
        </Alert>
      )}
    </Stack>
  );
}
