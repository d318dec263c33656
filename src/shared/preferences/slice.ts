import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../i18n/languages';
import { isHexColor } from '../lib/color';

export type ColorScheme = 'dark' | 'light';
/** Where the primary colour comes from (spec §3 "Theme provider"). */
export type ThemeProviderName = 'Managed' | 'Default' | 'Custom';
export const THEME_PROVIDERS: readonly ThemeProviderName[] = ['Managed', 'Default', 'Custom'];

/** Client-only choices of this browser; persisted, never sent anywhere but as Accept-Language. */
export interface PreferencesState {
  /** null until detection ran once; then the chosen or detected language. */
  language: Language | null;
  colorScheme: ColorScheme;
  themeProvider: ThemeProviderName;
  /** The user's own primary colour, `#rrggbb`; only used with the Custom provider. */
  customColor: string | null;
}

export const initialPreferences: PreferencesState = {
  language: null,
  colorScheme: 'dark',
  themeProvider: 'Managed',
  customColor: null,
};

const isColorScheme = (value: unknown): value is ColorScheme => value === 'dark' || value === 'light';
const isThemeProvider = (value: unknown): value is ThemeProviderName =>
  THEME_PROVIDERS.includes(value as ThemeProviderName);

/**
 * Restores preferences read back from storage, keeping only values that are still valid: storage is
 * outside our control (older versions, hand edits), and a bad value must never reach the theme or i18n.
 */
export function sanitizePreferences(stored: unknown): PreferencesState {
  const value = (stored && typeof stored === 'object' ? stored : {}) as Partial<
    Record<keyof PreferencesState, unknown>
  >;
  return {
    language: isLanguage(value.language) ? value.language : initialPreferences.language,
    colorScheme: isColorScheme(value.colorScheme) ? value.colorScheme : initialPreferences.colorScheme,
    themeProvider: isThemeProvider(value.themeProvider) ? value.themeProvider : initialPreferences.themeProvider,
    customColor: isHexColor(value.customColor) ? value.customColor.toLowerCase() : initialPreferences.customColor,
  };
}

export const preferencesSlice = createSlice({
  name: 'preferences',
  initialState: initialPreferences,
  reducers: {
    /** The user picked a language in the switcher. */
    languageChosen(state, action: PayloadAction<Language>) {
      if (isLanguage(action.payload)) state.language = action.payload;
    },
    /** Start-up detection settled on a language (spec §5). */
    languageDetected(state, action: PayloadAction<Language>) {
      if (isLanguage(action.payload)) state.language = action.payload;
    },
    colorSchemeChosen(state, action: PayloadAction<ColorScheme>) {
      if (isColorScheme(action.payload)) state.colorScheme = action.payload;
    },
    themeProviderChosen(state, action: PayloadAction<ThemeProviderName>) {
      if (isThemeProvider(action.payload)) state.themeProvider = action.payload;
    },
    /** An invalid colour is never saved (spec §5); the form says why before it gets here. */
    customColorChosen(state, action: PayloadAction<string>) {
      if (isHexColor(action.payload)) state.customColor = action.payload.toLowerCase();
    },
  },
  selectors: {
    selectLanguage: (state) => state.language ?? DEFAULT_LANGUAGE,
    selectColorScheme: (state) => state.colorScheme,
    selectThemeProvider: (state) => state.themeProvider,
    selectCustomColor: (state) => state.customColor,
  },
});

export const { languageChosen, languageDetected, colorSchemeChosen, themeProviderChosen, customColorChosen } =
  preferencesSlice.actions;
export const { selectLanguage, selectColorScheme, selectThemeProvider, selectCustomColor } = preferencesSlice.selectors;
