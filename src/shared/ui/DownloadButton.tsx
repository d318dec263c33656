import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button, { type ButtonProps } from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchWithProgress, saveBlob, type DownloadProgress } from '../api/download';
import { getErrorMessage } from '../api/errors';
import { formatFileSize } from '../lib/fileSize';

/**
 * A button that downloads a generated file (sheet exports) and shows its progress: a bar (exact when
 * the server sends Content-Length, running otherwise) and the size received so far. Keyboard and
 * screen readers get the same through the progress bar's label.
 */
export function DownloadButton({
  url,
  fileName,
  children,
  variant = 'outlined',
}: {
  url: string;
  /** Used when the server names no file. */
  fileName: string;
  children: ReactNode;
  variant?: ButtonProps['variant'];
}) {
  const { t, i18n } = useTranslation();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    abort.current = new AbortController();
    setError(null);
    setProgress({ received: 0, total: null });
    try {
      // i18next follows the app's chosen language (the preferences), which the sheet's errors use too.
      const file = await fetchWithProgress(url, setProgress, { signal: abort.current.signal, language: i18n.language });
      saveBlob(file.blob, file.fileName ?? fileName);
    } catch (failure) {
      if (!abort.current.signal.aborted)
        setError(failure instanceof Error && 'body' in failure ? failure.body : failure);
    } finally {
      setProgress(null);
    }
  };

  const label = progress
    ? progress.total
      ? t('download.progressOf', {
          received: formatFileSize(progress.received),
          total: formatFileSize(progress.total),
        })
      : t('download.progress', { received: formatFileSize(progress.received) })
    : '';
  return (
    <Stack spacing={0.5} sx={{ minWidth: 200 }}>
      <Button variant={variant} startIcon={<DownloadIcon />} disabled={progress !== null} onClick={() => void start()}>
        {children}
      </Button>
      {progress && (
        <>
          <LinearProgress
            aria-label={label}
            variant={progress.total ? 'determinate' : 'indeterminate'}
            value={progress.total ? (100 * progress.received) / progress.total : undefined}
          />
          <Typography variant="caption" color="text.secondary" role="status">
            {label}
          </Typography>
        </>
      )}
      {error !== null && (
        <Alert severity="error" onClose={() => setError(null)}>
          {getErrorMessage(t, error)}
        </Alert>
      )}
    </Stack>
  );
}
