import fs from 'node:fs';
import path from 'node:path';
import { createInstance, type TFunction } from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages';

/** Server texts live beside the client's, in `locales/<lang>/server.json`, so one parity test covers both. */
const LOCALES_DIR = path.resolve(__dirname, '../../../locales');

function loadResources() {
  return Object.fromEntries(
    LANGUAGES.map((language) => {
      const file = path.join(LOCALES_DIR, language, 'server.json');
      const server = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as object) : {};
      return [language, { server }];
    }),
  );
}

const i18n = createInstance();
void i18n.init({
  resources: loadResources(),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ['server'],
  defaultNS: 'server',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

const translators = new Map<Language, TFunction>(LANGUAGES.map((language) => [language, i18n.getFixedT(language)]));

export function translator(language: Language): TFunction {
  return translators.get(language) ?? i18n.getFixedT(DEFAULT_LANGUAGE);
}
