import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { AccountCard } from './AccountCard';

interface LinkOutcomeProps {
  title: string;
  /** The call made with the link's values: not started, running, done or failed. */
  state: { isSuccess: boolean; isError: boolean; error?: unknown };
  success: string;
  /** Where to go next once it worked. */
  next: { to: string; label: string };
  /** Shown instead of the outcome (an incomplete link, a sign-in prompt). */
  notice?: ReactNode;
}

/** The verify and confirm pages: a mailed link's outcome, success or the server's reason. */
export function LinkOutcome({ title, state, success, next, notice }: LinkOutcomeProps) {
  const { t } = useTranslation();
  let body: ReactNode;
  if (notice) body = notice;
  else if (state.isSuccess) {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="success" role="status" sx={{ width: '100%' }}>
          {success}
        </Alert>
        <Button component={RouterLink} to={next.to} variant="contained">
          {next.label}
        </Button>
      </Stack>
    );
  } else if (state.isError) {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="error" sx={{ width: '100%' }}>
          {getErrorMessage(t, state.error)}
        </Alert>
        <Button component={RouterLink} to="/" variant="outlined">
          {t('account:link.home')}
        </Button>
      </Stack>
    );
  } else {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} aria-hidden />
        <Typography color="text.secondary">{t('account:link.checking')}</Typography>
      </Stack>
    );
  }
  return <AccountCard title={title}>{body}</AccountCard>;
}
