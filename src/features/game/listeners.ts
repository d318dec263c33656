import type { AppStartListening } from '@/app/listenerMiddleware';
import type { Unsubscribe } from '@reduxjs/toolkit';
import { api } from './api';

type ChallengeSelectorState = Parameters<ReturnType<typeof api.endpoints.gameGetChallenge.select>>[0];

/** The server refuses a second container operation within 10 s of the last (reference §5.9). */
export const CONTAINER_OPERATION_INTERVAL_MS = 10_000;

/**
 * A dynamic container holds the team's own flag; once that flag is accepted the instance has served
 * its purpose, so the client destroys it instead of leaving it to expire (GZCTF's challenge dialog
 * does the same, reference §7.4). Static containers are shared in content, and the player may still
 * want them, so they stay. A flag found within seconds of starting the instance waits out the
 * server's throttle first, rather than meeting a 429.
 */
export function addGameListeners(startListening: AppStartListening): Unsubscribe {
  const startedAt = new Map<string, number>();
  const key = (id: number, challengeId: number) => `${id}:${challengeId}`;
  const unsubscribes = [
    startListening({
      matcher: api.endpoints.gameCreateContainer.matchFulfilled,
      effect(action) {
        const { id, challengeId } = action.meta.arg.originalArgs;
        startedAt.set(key(id, challengeId), Date.now());
      },
    }),
    startListening({
      matcher: api.endpoints.gameStatus.matchFulfilled,
      async effect(action, { dispatch, getState, delay }) {
        if (action.payload !== 'Accepted') return;
        const { id, challengeId } = action.meta.arg.originalArgs;
        // The root state's type knows the base API without this feature's endpoints, hence the cast.
        const state = getState() as unknown as ChallengeSelectorState;
        const challenge = api.endpoints.gameGetChallenge.select({ id, challengeId })(state).data;
        if (challenge?.type !== 'DynamicContainer' || !challenge.context.instanceEntry) return;
        const started = startedAt.get(key(id, challengeId));
        startedAt.delete(key(id, challengeId));
        const wait = started === undefined ? 0 : started + CONTAINER_OPERATION_INTERVAL_MS + 500 - Date.now();
        if (wait > 0) await delay(wait);
        void dispatch(api.endpoints.gameDeleteContainer.initiate({ id, challengeId }));
      },
    }),
  ];
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
