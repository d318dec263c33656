import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage, getErrorStatus } from '@/shared/api/errors';

/**
 * A failed load, said inline with a retry; for something that does not exist (a 404, such as a
 * mistyped game id) a way back to the games instead, since retrying cannot help.
 */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  let action;
  if (getErrorStatus(error) === 404)
    action = (
      <Button color="inherit" size="small" component={RouterLink} to="/games">
        {t('game:recent.all')}
      </Button>
    );
  else if (onRetry)
    action = (
      <Button color="inherit" size="small" onClick={onRetry}>
        {t('game:retry')}
      </Button>
    );
  return (
    <Alert severity="error" action={action}>
      {getErrorMessage(t, error)}
    </Alert>
  );
}
