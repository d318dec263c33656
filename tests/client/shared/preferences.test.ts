import {
  colorSchemeChosen,
  customColorChosen,
  initialPreferences,
  languageChosen,
  preferencesSlice,
  sanitizePreferences,
  selectLanguage,
  themeProviderChosen,
  type ColorScheme,
  type ThemeProviderName,
} from '@/shared/preferences/slice';
import type { Language } from '@/shared/i18n/languages';

const reduce = preferencesSlice.reducer;

describe('preferences', () => {
  it('start dark, with the managed colour and no language chosen (en-US until detection)', () => {
    expect(initialPreferences).toEqual({
      language: null,
      colorScheme: 'dark',
      themeProvider: 'Managed',
      customColor: null,
    });
    expect(selectLanguage({ preferences: initialPreferences })).toBe('en-US');
  });

  it('never save an invalid custom colour', () => {
    let state = reduce(initialPreferences, customColorChosen('#3F8CFF'));
    expect(state.customColor).toBe('#3f8cff');
    for (const invalid of ['#3f8cf', 'blue', '#3f8cffff', '', 'url(javascript:x)']) {
      state = reduce(state, customColorChosen(invalid));
      expect(state.customColor).toBe('#3f8cff');
    }
  });

  it('ignore unknown schemes, providers and languages', () => {
    const state = [
      colorSchemeChosen('sepia' as ColorScheme),
      themeProviderChosen('Rainbow' as ThemeProviderName),
      languageChosen('xx-XX' as Language),
    ].reduce(reduce, initialPreferences);
    expect(state).toEqual(initialPreferences);
  });

  it('are checked when read back from storage', () => {
    expect(
      sanitizePreferences({ language: 'ko-KR', colorScheme: 'light', themeProvider: 'Custom', customColor: '#ABCDEF' }),
    ).toEqual({
      language: 'ko-KR',
      colorScheme: 'light',
      themeProvider: 'Custom',
      customColor: '#abcdef',
    });
    expect(sanitizePreferences('garbage')).toEqual(initialPreferences);
    expect(sanitizePreferences({ language: 'en-US"><script>' })).toEqual(initialPreferences);
  });
});
