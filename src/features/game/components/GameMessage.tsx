import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** A page-sized message instead of the board (not started, ended, not accepted, signed out). */
export function GameMessage({
  title,
  message,
  action,
}: {
  title: string;
  message?: ReactNode;
  action?: { to: string; label: string };
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
      <Stack spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h5" component="h2">
          {title}
        </Typography>
        {message && <Typography color="text.secondary">{message}</Typography>}
        {action && (
          <Button component={RouterLink} to={action.to} variant="contained">
            {action.label}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
