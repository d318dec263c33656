import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { selectLanguage } from '@/shared/preferences/slice';
import { useAppSelector } from './hooks';

/** Keeps i18next and the document's `lang` attribute on the language in the preferences. */
export function LanguageSync() {
  const language = useAppSelector(selectLanguage);
  const { i18n } = useTranslation();
  useEffect(() => {
    document.documentElement.lang = language;
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [i18n, language]);
  return null;
}
