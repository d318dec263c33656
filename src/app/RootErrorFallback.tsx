import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ErrorFallbackProps } from '@/shared/ui/ErrorBoundary';
import { ErrorScreen } from '@/shared/ui/ErrorScreen';
import { createAppTheme } from './theme';

const fallbackTheme = createAppTheme('dark');

/**
 * The error screen when even the providers failed: its own dark theme, since the app's may be what
 * broke, and "clean cache" wipes storage directly.
 */
export function RootErrorFallback({
  error,
  reset,
  cleanCache,
}: ErrorFallbackProps & { cleanCache: () => Promise<void> }) {
  return (
    <ThemeProvider theme={fallbackTheme}>
      <CssBaseline />
      <ErrorScreen error={error} onRetry={reset} onCleanCache={cleanCache} />
    </ThemeProvider>
  );
}
