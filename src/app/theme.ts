import { createTheme, getContrastRatio, type Theme } from '@mui/material/styles';
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

const DARK_BACKGROUND = { default: '#121417', paper: '#1a1d21' } as const;

/** WCAG 2.2 non-text contrast: a focus ring must stand out 3:1 against what surrounds it. */
const MIN_RING_CONTRAST = 3;

/**
 * The focus ring's colour: the brand shade furthest from the page (light on dark, dark on light),
 * unless a custom brand colour makes that too faint against the page or a card, then plain text colour.
 */
export function focusRingColor(scheme: ColorScheme, palette: Palette): string {
  const candidate = palette[scheme === 'dark' ? SHADES.dark.light : SHADES.light.dark];
  const surfaces = scheme === 'dark' ? [DARK_BACKGROUND.default, DARK_BACKGROUND.paper] : ['#ffffff'];
  const clear = surfaces.every((surface) => getContrastRatio(candidate, surface) >= MIN_RING_CONTRAST);
  return clear ? candidate : scheme === 'dark' ? '#ffffff' : '#000000';
}

/** The MUI theme for a colour scheme and a primary palette (see shared/theme/primaryPalette.ts). */
export function createAppTheme(scheme: ColorScheme, palette: Palette = DEFAULT_BRAND_PALETTE): Theme {
  const shade = SHADES[scheme];
  // Keyboard focus gets a solid ring (hover keeps MUI's faint overlay), so the two never look alike.
  const ring = focusRingColor(scheme, palette);
  const outside = { outline: `2px solid ${ring}`, outlineOffset: 2 } as const;
  // For elements that fill a clipping container (a card, a menu, a tab strip), where a ring drawn
  // outside would be cut off.
  const inside = { outline: `2px solid ${ring}`, outlineOffset: -2 } as const;
  return createTheme({
    palette: {
      mode: scheme,
      // Text on a coloured fill (contained buttons, filled chips) is black or white, whichever reaches
      // WCAG AA's 4.5:1; MUI's default of 3:1 put white on dark theme's red (#f44336, 3.68:1).
      contrastThreshold: 4.5,
      primary: { light: palette[shade.light], main: palette[shade.main], dark: palette[shade.dark] },
      ...(scheme === 'dark' ? { background: DARK_BACKGROUND } : {}),
    },
    shape: { borderRadius: 8 },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          // What takes focus (or is scrolled to) stops below the sticky app bar, not under it (WCAG 2.4.11).
          html: { scrollPaddingTop: 80 },
          // Plain links and script-focusable elements (a page heading focused on navigation). Not
          // the main region (focused only as a fallback, it would ring the whole page), nor a
          // select's box, which shows focus with its field's border like every text field.
          ':where(a[href], summary, [tabindex]:not(main, .MuiInputBase-input)):focus-visible': outside,
        },
      },
      // Buttons, icon buttons, chips, checkboxes, pagination...: everything built on ButtonBase.
      MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': outside } } },
      MuiCardActionArea: { styleOverrides: { root: { '&.Mui-focusVisible': inside } } },
      MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': inside } } },
      MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': inside } } },
      MuiTab: { styleOverrides: { root: { '&.Mui-focusVisible': inside } } },
      MuiSwitch: { styleOverrides: { switchBase: { '&.Mui-focusVisible': inside } } },
      MuiLink: { styleOverrides: { root: { '&:focus-visible, &.Mui-focusVisible': { ...outside, borderRadius: 2 } } } },
      // Every modal (dialogs, the navigation drawer) gets the overlay; menus and popovers use an
      // invisible backdrop and keep it that way.
      MuiBackdrop: {
        styleOverrides: {
          root: ({ ownerState }) => (ownerState.invisible ? {} : MODAL_BACKDROP),
        },
      },
      MuiButton: { defaultProps: { disableElevation: true } },
      // The data grid renders its own `<style>` of CSS variables, let in by the page's nonce.
      MuiDataGrid: {
        defaultProps: { nonce: CSP_NONCE },
        styleOverrides: {
          // The grid's own cell outline is 1 px at half opacity: too faint to find.
          root: {
            '& .MuiDataGrid-cell:focus, & .MuiDataGrid-cell:focus-within, & .MuiDataGrid-columnHeader:focus, & .MuiDataGrid-columnHeader:focus-within':
              inside,
          },
        },
      },
    },
  });
}
