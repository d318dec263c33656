import { detectLanguage } from '@/shared/i18n/detect';
import { appStarted } from '@/shared/lifecycle';
import { languageDetected } from '@/shared/preferences/slice';
import { initI18n } from './i18n';
import type { AppStore } from './store';

/**
 * Start-up, once the local cache is restored (PersistGate's onBeforeLift): settle the language
 * (`?lang=`, then the stored choice, then the browser's languages; spec §5), load its texts, then
 * tell the features the app has started. Idempotent, so a re-mounted gate does not run it twice.
 */
export function createBootstrap(store: AppStore): () => Promise<void> {
  let started: Promise<void> | undefined;
  return () => {
    started ??= (async () => {
      const language = detectLanguage({
        query: new URLSearchParams(window.location.search).get('lang'),
        stored: store.getState().preferences.language,
        navigatorLanguages: navigator.languages,
      });
      store.dispatch(languageDetected(language));
      await initI18n(language);
      store.dispatch(appStarted());
    })();
    return started;
  };
}
