import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '@/shared/api/errors';

/** A failed load, said inline with a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('game:retry')}
          </Button>
        ) : undefined
      }
    >
      {getErrorMessage(t, error)}
    </Alert>
  );
}
