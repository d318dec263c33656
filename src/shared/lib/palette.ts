import { hexToHsl, hslToHex, parseHexColor } from './color';

/** Ten shades, lightest first (index 0) to darkest (index 9), as `#rrggbb`. */
export type Palette = readonly [string, string, string, string, string, string, string, string, string, string];

export const PALETTE_SIZE = 10;

/** Lightness of each step for an average colour; the given colour replaces the nearest step. */
const LIGHTNESS_STEPS = [0.96, 0.89, 0.8, 0.7, 0.6, 0.5, 0.41, 0.33, 0.25, 0.17];
const LIGHTEST = LIGHTNESS_STEPS[0]!;
const DARKEST = LIGHTNESS_STEPS[PALETTE_SIZE - 1]!;

/** The built-in brand palette (theme provider "Default"): a teal, lightest to darkest. */
export const DEFAULT_BRAND_PALETTE: Palette = [
  '#e3fcf7',
  '#c0f5ea',
  '#8cebd8',
  '#55dec4',
  '#2acfb1',
  '#0fbf9f',
  '#05a288',
  '#03826e',
  '#036355',
  '#04453c',
];

/**
 * Ten lightness steps of one colour (spec §4: the brand palette has 10 shades). The hue and
 * saturation stay those of `hex`; `hex` itself sits at the step nearest to its own lightness, and the
 * other steps spread evenly towards the lightest and the darkest ends, so lightness always falls
 * from index 0 to index 9.
 */
export function generatePalette(hex: string): Palette {
  const base = parseHexColor(hex);
  if (!base) throw new TypeError(`not a hex colour: ${hex}`);
  const { h, s, l } = hexToHsl(base);
  let anchor = 0;
  LIGHTNESS_STEPS.forEach((step, index) => {
    if (Math.abs(step - l) < Math.abs(LIGHTNESS_STEPS[anchor]! - l)) anchor = index;
  });
  const top = Math.max(LIGHTEST, l);
  const bottom = Math.min(DARKEST, l);
  const shades = Array.from({ length: PALETTE_SIZE }, (_, index) => {
    if (index === anchor) return base;
    const lightness =
      index < anchor
        ? top - ((top - l) * index) / anchor
        : l - ((l - bottom) * (index - anchor)) / (PALETTE_SIZE - 1 - anchor);
    // Very light and very dark steps look washed out at full saturation; ease it off at the ends.
    const saturation = s * (lightness > 0.85 || lightness < 0.2 ? 0.85 : 1);
    return hslToHex({ h, s: saturation, l: lightness });
  });
  return shades as unknown as Palette;
}
