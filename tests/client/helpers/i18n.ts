import fs from 'node:fs';
import path from 'node:path';
import i18next, { type i18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES } from '@/shared/i18n/languages';

const LOCALES = path.resolve(__dirname, '../../../locales');

/** Deep-frozen, so a test (or i18next) changing the shared dictionaries would throw instead of leaking. */
function freeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) freeze(inner);
    Object.freeze(value);
  }
  return value;
}

// Read once per test file: parsing every dictionary again for each test cost seconds over the suite.
let cached: Resource | undefined;

function resources(): Resource {
  cached ??= freeze(readResources());
  return cached;
}

function readResources(): Resource {
  return Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      Object.fromEntries(
        fs
          .readdirSync(path.join(LOCALES, language))
          .filter((file) => file.endsWith('.json') && file !== 'server.json')
          .map((file) => [
            path.basename(file, '.json'),
            JSON.parse(fs.readFileSync(path.join(LOCALES, language, file), 'utf8')),
          ]),
      ),
    ]),
  );
}

/**
 * An i18next instance with the real dictionaries inline (src/app/i18n.ts fetches them from /static/
 * and is never imported in Jest). Synchronous, so texts are there on the first render.
 */
export function createTestI18n(language = 'en-US'): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en-US',
    supportedLngs: [...LANGUAGES],
    resources: resources(),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  return instance;
}
