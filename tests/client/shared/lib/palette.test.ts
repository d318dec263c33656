import { hexToHsl, isHexColor, parseHexColor } from '@/shared/lib/color';
import { DEFAULT_BRAND_PALETTE, generatePalette } from '@/shared/lib/palette';

const lightness = (hex: string) => hexToHsl(hex).l;

describe('hex colours', () => {
  it('accept only #RRGGBB as a custom colour', () => {
    expect(isHexColor('#3f8cff')).toBe(true);
    expect(isHexColor('#3F8CFF')).toBe(true);
    for (const bad of ['3f8cff', '#3f8cf', '#3f8cffaa', '#fff', '#gggggg', 'red', '', null, 42]) {
      expect(isHexColor(bad)).toBe(false);
    }
  });

  it('parse #RGB and #RRGGBB for the managed colour', () => {
    expect(parseHexColor('#ABC')).toBe('#aabbcc');
    expect(parseHexColor(' #3F8CFF ')).toBe('#3f8cff');
    expect(parseHexColor('rgb(1,2,3)')).toBeUndefined();
    expect(parseHexColor('#12345')).toBeUndefined();
    expect(parseHexColor(undefined)).toBeUndefined();
  });
});

describe('generatePalette', () => {
  it.each(['#3f8cff', '#00bfa5', '#e64980', '#fab005', '#111111', '#f8f9fa', '#000000', '#ffffff', '#808080'])(
    'gives ten valid shades of %s, lightest first, containing the colour itself',
    (hex) => {
      const palette = generatePalette(hex);
      expect(palette).toHaveLength(10);
      palette.forEach((shade) => expect(shade).toMatch(/^#[0-9a-f]{6}$/));
      expect(palette).toContain(hex);
      for (let index = 1; index < palette.length; index += 1) {
        expect(lightness(palette[index]!)).toBeLessThan(lightness(palette[index - 1]!));
      }
    },
  );

  it('keeps the hue', () => {
    const { h } = hexToHsl('#3f8cff');
    for (const shade of generatePalette('#3f8cff').slice(1, 9)) {
      expect(Math.abs(hexToHsl(shade).h - h)).toBeLessThan(3);
    }
  });

  it('puts the colour at the step nearest to its lightness', () => {
    expect(generatePalette('#3f8cff').indexOf('#3f8cff')).toBe(4);
    expect(generatePalette('#ffffff')[0]).toBe('#ffffff');
    expect(generatePalette('#000000')[9]).toBe('#000000');
  });

  it('accepts #RGB and any case, and refuses anything else', () => {
    expect(generatePalette('#ABC')).toEqual(generatePalette('#aabbcc'));
    expect(() => generatePalette('blue')).toThrow(TypeError);
  });

  it('has a built-in 10-shade brand palette', () => {
    expect(DEFAULT_BRAND_PALETTE).toHaveLength(10);
    for (let index = 1; index < 10; index += 1) {
      expect(lightness(DEFAULT_BRAND_PALETTE[index]!)).toBeLessThan(lightness(DEFAULT_BRAND_PALETTE[index - 1]!));
    }
  });
});
