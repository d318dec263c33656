import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useMemo, type ReactNode } from 'react';
import { selectClientConfig } from '@/features/info/api';
import { selectColorScheme, selectCustomColor, selectThemeProvider } from '@/shared/preferences/slice';
import { resolvePrimaryPalette } from '@/shared/theme/primaryPalette';
import { useAppSelector } from './hooks';
import { createAppTheme } from './theme';

/** The MUI theme from the preferences (scheme, provider, custom colour) and the server's managed colour. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const scheme = useAppSelector(selectColorScheme);
  const provider = useAppSelector(selectThemeProvider);
  const customColor = useAppSelector(selectCustomColor);
  const managedColor = useAppSelector((state) => selectClientConfig(state).customTheme);
  const theme = useMemo(
    () => createAppTheme(scheme, resolvePrimaryPalette({ provider, customColor, managedColor })),
    [scheme, provider, customColor, managedColor],
  );
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}
