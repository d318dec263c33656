import { createListenerMiddleware } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from './store';

/**
 * Kept out of store.ts so features can import the typed helpers without a cycle
 * (@see https://redux-toolkit.js.org/api/createListenerMiddleware#organizing-listeners-in-files).
 * Features never call `startAppListening` themselves: each exports `addXListeners(startListening)`
 * and src/app/listeners.ts registers them all once.
 */
export const listenerMiddleware = createListenerMiddleware();

export const startAppListening = listenerMiddleware.startListening.withTypes<RootState, AppDispatch>();
export type AppStartListening = typeof startAppListening;
