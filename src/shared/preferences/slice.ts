import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages';

/** Client-only choices of this browser; persisted, never sent anywhere but as Accept-Language. */
export interface PreferencesState {
  language: Language;
}

const initialState: PreferencesState = { language: DEFAULT_LANGUAGE };

export const preferencesSlice = createSlice({
  name: 'preferences',
  initialState,
  reducers: {
    languageChosen(state, action: PayloadAction<Language>) {
      state.language = action.payload;
    },
  },
  selectors: {
    selectLanguage: (state) => state.language,
  },
});

export const { languageChosen } = preferencesSlice.actions;
export const { selectLanguage } = preferencesSlice.selectors;
