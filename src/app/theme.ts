import { createTheme } from '@mui/material/styles';

/** Dark is the default scheme (spec §1); issue 3 adds the light scheme and theme providers. */
export const theme = createTheme({
  colorSchemes: { dark: true, light: true },
  defaultColorScheme: 'dark',
  palette: { primary: { main: '#3f8cff' } },
});
