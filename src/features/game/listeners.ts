import type { AppStartListening } from '@/app/listenerMiddleware';
import { api } from './api';

type ChallengeSelectorState = Parameters<ReturnType<typeof api.endpoints.gameGetChallenge.select>>[0];

/**
 * A dynamic container holds the team's own flag; once that flag is accepted the instance has served
 * its purpose, so the client destroys it right away instead of leaving it to expire (GZCTF's
 * challenge dialog does the same, reference §7.4). Static containers are shared in content, and the
 * player may still want them, so they stay.
 */
export function addGameListeners(startListening: AppStartListening) {
  return startListening({
    matcher: api.endpoints.gameStatus.matchFulfilled,
    effect(action, { dispatch, getState }) {
      if (action.payload !== 'Accepted') return;
      const { id, challengeId } = action.meta.arg.originalArgs;
      // The root state's type knows the base API without this feature's endpoints, hence the cast.
      const state = getState() as unknown as ChallengeSelectorState;
      const challenge = api.endpoints.gameGetChallenge.select({ id, challengeId })(state).data;
      if (challenge?.type !== 'DynamicContainer' || !challenge.context.instanceEntry) return;
      void dispatch(api.endpoints.gameDeleteContainer.initiate({ id, challengeId }));
    },
  });
}
