import { createTheme, type Theme } from '@mui/material/styles';
import type {} from '@mui/x-data-grid/themeAugmentation';
import { DEFAULT_BRAND_PALETTE, type Palette } from '@/shared/lib/palette';
import type { ColorScheme } from '@/shared/preferences/slice';
import { CSP_NONCE } from './nonce';

/** Modal overlay (spec §9): black at opacity 0.5, background blurred 8 px. */
export const MODAL_BACKDROP = { backgroundColor: 'rgba(0, 0, 0, 0.5)', backdropFilter: 'blur(8px)' } as const;

type Shade = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** Which of the ten shades each scheme uses: lighter on dark backgrounds, darker on light ones. */
const SHADES: Record<ColorScheme, { light: Shade; main: Shade; dark: Shade }> = {
  dark: { light: 3, main: 4, dark: 6 },
  light: { light: 4, main: 6, dark: 8 },
};

/** The MUI theme for a colour scheme and a primary palette (see shared/theme/primaryPalette.ts). */
export function createAppTheme(scheme: ColorScheme, palette: Palette = DEFAULT_BRAND_PALETTE): Theme {
  const shade = SHADES[scheme];
  return createTheme({
    palette: {
      mode: scheme,
      primary: { light: palette[shade.light], main: palette[shade.main], dark: palette[shade.dark] },
      ...(scheme === 'dark' ? { background: { default: '#121417', paper: '#1a1d21' } } : {}),
    },
    shape: { borderRadius: 8 },
    components: {
      // Every modal (dialogs, the navigation drawer) gets the overlay; menus and popovers use an
      // invisible backdrop and keep it that way.
      MuiBackdrop: {
        styleOverrides: {
          root: ({ ownerState }) => (ownerState.invisible ? {} : MODAL_BACKDROP),
        },
      },
      MuiButton: { defaultProps: { disableElevation: true } },
      // The data grid renders its own `<style>` of CSS variables, let in by the page's nonce.
      MuiDataGrid: { defaultProps: { nonce: CSP_NONCE } },
    },
  });
}
