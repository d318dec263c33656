import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';

/** A challenge query's load error, or a spinner while it loads (the challenge list and a challenge's pages). */
export function ChallengeLoadState({ error, isLoading }: { error: unknown; isLoading: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {error ? <Alert severity="error">{getErrorMessage(t, error)}</Alert> : null}
      {isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('challengeEdit:loading')} />
        </Box>
      ) : null}
    </>
  );
}
