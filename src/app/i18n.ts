import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, matchLanguage, type Language } from '@/shared/i18n/languages';
import { LOCALE_FILES } from '@/shared/i18n/localeFiles';
import { NAMESPACES } from '@/shared/i18n/namespaces';

type Bundle = Record<string, ResourceKey>;
const bundles = new Map<string, Promise<Bundle>>();

/** Fetches a language's one hashed file from /static/; an unknown language yields an empty dictionary. */
function loadBundle(language: string): Promise<Bundle> {
  const supported = matchLanguage(language);
  const file = supported ? LOCALE_FILES[supported] : undefined;
  if (!file) {
    console.warn(`Unsupported language "${language}"; falling back to ${DEFAULT_LANGUAGE}.`);
    return Promise.resolve({});
  }
  let pending = bundles.get(file);
  if (!pending) {
    pending = fetch(`/static/${file}`)
      .then((response) => (response.ok ? (response.json() as Promise<Bundle>) : {}))
      .catch(() => {
        bundles.delete(file);
        return {};
      });
    bundles.set(file, pending);
  }
  return pending;
}

const staticFilesBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    loadBundle(language).then(
      (bundle) => callback(null, bundle[namespace] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export function initI18n(language: Language) {
  return i18next
    .use(staticFilesBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: [...NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
    });
}

export { i18next };
