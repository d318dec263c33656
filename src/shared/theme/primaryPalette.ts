import { parseHexColor, isHexColor } from '../lib/color';
import { DEFAULT_BRAND_PALETTE, generatePalette, type Palette } from '../lib/palette';
import type { ThemeProviderName } from '../preferences/slice';

export interface PrimaryPaletteInput {
  provider: ThemeProviderName;
  /** The user's colour for the Custom provider. */
  customColor: string | null;
  /** The server's `customTheme` for the Managed provider. */
  managedColor: string | null | undefined;
}

/**
 * The ten shades the primary colour is built from (spec §4): Custom uses the user's valid `#RRGGBB`,
 * Managed the server's colour when it is a valid hex colour, and everything else (Default, or an
 * invalid colour) the built-in brand palette.
 */
export function resolvePrimaryPalette({ provider, customColor, managedColor }: PrimaryPaletteInput): Palette {
  if (provider === 'Custom' && isHexColor(customColor)) return generatePalette(customColor);
  if (provider === 'Managed') {
    const managed = parseHexColor(managedColor);
    if (managed) return generatePalette(managed);
  }
  return DEFAULT_BRAND_PALETTE;
}
