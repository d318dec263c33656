import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';

/**
 * What a post list shows before it has posts: placeholders, the failure with a retry, or "none yet".
 * Built from plain boxes (no Skeleton or Alert): the home page shows it, within its script budget.
 */
export function PostListState({
  isLoading,
  error,
  onRetry,
  rows = 3,
}: {
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  rows?: number;
}) {
  const { t } = useTranslation();
  if (isLoading) {
    return (
      <Stack spacing={2} role="status" aria-busy="true" aria-label={t('common:loading')}>
        {Array.from({ length: rows }, (_, index) => (
          <Box key={index} sx={{ height: 112, borderRadius: 1, bgcolor: 'action.hover' }} />
        ))}
      </Stack>
    );
  }
  if (error) {
    return (
      <Stack
        role="alert"
        direction="row"
        spacing={2}
        sx={{
          alignItems: 'center',
          justifyContent: 'space-between',
          p: 2,
          borderRadius: 1,
          border: 1,
          borderColor: 'error.main',
        }}
      >
        <Typography color="error">{getErrorMessage(t, error)}</Typography>
        <Button color="error" size="small" onClick={onRetry} sx={{ flexShrink: 0 }}>
          {t('posts:retry')}
        </Button>
      </Stack>
    );
  }
  return <Typography color="text.secondary">{t('posts:empty')}</Typography>;
}
