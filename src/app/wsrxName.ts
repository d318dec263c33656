import { DEFAULT_CLIENT_CONFIG, selectClientConfig } from '@/features/info/api';
import { daemonNamed, daemonNameFor, selectWsrxOptions } from '@/features/wsrx/slice';
import type { AppStartListening } from './listenerMiddleware';

/**
 * Spec §3: the wsrx daemon lists this site as "{title}::CTF" once the platform title is known. Lives
 * in the app because it joins two features (info's config, wsrx's options). Until a config arrived
 * (the default object) the stored name stands, so a returning visitor is not renamed back and forth.
 */
export function addWsrxNameListener(startListening: AppStartListening) {
  return startListening({
    predicate: (_action, state) => {
      const config = selectClientConfig(state);
      return config !== DEFAULT_CLIENT_CONFIG && selectWsrxOptions(state).name !== daemonNameFor(config.title);
    },
    effect(_action, { getState, dispatch }) {
      dispatch(daemonNamed(daemonNameFor(selectClientConfig(getState()).title)));
    },
  });
}
