import type { GridLocaleText } from '@mui/x-data-grid';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, matchLanguage } from '@/shared/i18n/languages';

/**
 * The data grid's texts in the reader's language. English is built in; the others load on first need
 * (one small chunk), so an English reader never downloads them.
 */
export function useGridLocaleText(): Partial<GridLocaleText> | undefined {
  const { i18n } = useTranslation();
  const language = matchLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
  const [loaded, setLoaded] = useState<{ language: string; text: Partial<GridLocaleText> }>();
  useEffect(() => {
    // English is the grid's own default.
    if (language === 'en-US') return;
    const wanted = language;
    let current = true;
    import(/* webpackChunkName: "grid-locales" */ './gridLocales').then(
      ({ GRID_LOCALES }) => {
        if (current) setLoaded({ language, text: GRID_LOCALES[wanted].components.MuiDataGrid.defaultProps.localeText });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [language]);
  return loaded?.language === language ? loaded.text : undefined;
}
