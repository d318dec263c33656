import type { AppStartListening } from '@/app/listenerMiddleware';
import { appStarted } from '@/shared/lifecycle';
import { api } from './api';

/**
 * At start-up the config may come from the local cache (so the title and theme render at once);
 * fetch the current one right away, once, so the cached copy is replaced as soon as it answers.
 */
export function addInfoListeners(startListening: AppStartListening) {
  return startListening({
    actionCreator: appStarted,
    effect(_action, { dispatch }) {
      void dispatch(api.endpoints.infoGetClientConfig.initiate(undefined, { forceRefetch: true, subscribe: false }));
    },
  });
}
