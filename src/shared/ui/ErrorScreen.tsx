import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ErrorScreenProps {
  error: Error;
  onRetry: () => void;
  onCleanCache: () => void | Promise<void>;
}

/**
 * What a render failure shows (spec §2): the message, the stack trace (scrollable, monospace), "try
 * again" and "clean cache" (wipes the local cache, then reloads).
 */
export function ErrorScreen({ error, onRetry, onCleanCache }: ErrorScreenProps) {
  const { t } = useTranslation();
  const stackId = useId();
  const [cleaning, setCleaning] = useState(false);
  const stack = error.stack?.trim() || `${error.name}: ${error.message}`;
  return (
    <Box role="alert" sx={{ maxWidth: 900, mx: 'auto', my: { xs: 3, sm: 6 }, px: 2 }}>
      <Stack spacing={2}>
        <Typography variant="h4" component="h1">
          {t('common:errorScreen.title')}
        </Typography>
        <Typography color="text.secondary">{t('common:errorScreen.description')}</Typography>
        {/* Plain boxes rather than Alert: the error screen stays in the first load, Alert does not. */}
        <Box sx={{ border: 1, borderColor: 'error.main', borderRadius: 1, px: 2, py: 1.5 }}>
          <Typography component="p" sx={{ fontWeight: 600, color: 'error.main' }}>
            {error.name}
          </Typography>
          <Typography component="p" data-testid="error-message" sx={{ wordBreak: 'break-word' }}>
            {error.message || t('common:error.unknown')}
          </Typography>
        </Box>
        <Typography variant="subtitle2" component="h2" id={stackId}>
          {t('common:errorScreen.stack')}
        </Typography>
        <Box
          component="pre"
          // Focusable and named, so keyboard users can scroll a long trace.
          role="region"
          tabIndex={0}
          aria-labelledby={stackId}
          data-testid="error-stack"
          sx={{
            m: 0,
            p: 2,
            maxHeight: 320,
            overflow: 'auto',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
            fontSize: 13,
            lineHeight: 1.5,
            whiteSpace: 'pre',
            borderRadius: 1,
            bgcolor: 'action.hover',
          }}
        >
          {stack}
        </Box>
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" onClick={onRetry}>
            {t('common:errorScreen.retry')}
          </Button>
          <Button
            variant="outlined"
            color="error"
            disabled={cleaning}
            onClick={() => {
              setCleaning(true);
              void onCleanCache();
            }}
          >
            {t('common:errorScreen.cleanCache')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
