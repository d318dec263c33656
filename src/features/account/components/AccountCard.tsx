import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface AccountCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links under the card (register, recovery …). */
  footer?: ReactNode;
}

/** The centred card the sign-in, registration and recovery pages share. */
export function AccountCard({ title, subtitle, children, footer }: AccountCardProps) {
  return (
    <Stack sx={{ alignItems: 'center', py: { xs: 1, sm: 4 } }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 2.5, sm: 4 } }}>
        <Stack spacing={1} sx={{ mb: 3 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary">
              {subtitle}
            </Typography>
          )}
        </Stack>
        {children}
      </Paper>
      {footer && (
        <Stack spacing={0.5} sx={{ mt: 2, alignItems: 'center', textAlign: 'center' }}>
          {footer}
        </Stack>
      )}
    </Stack>
  );
}
