import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { addWsrxListeners } from '@/features/wsrx/listeners';
import { initialWsrxState, wsrxSlice, type WsrxState } from '@/features/wsrx/slice';
import { notificationsSlice } from '@/shared/notifications/slice';
import { translateText } from '@/shared/text/textRef';
import { createTestI18n } from '../../helpers/i18n';

/** The proxy address of one challenge instance, as the game page hands it to wsrx. */
export const REMOTE = 'wss://ctf.example/api/proxy/7d0b3c5e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const listeners: Array<ReturnType<typeof createListenerMiddleware>> = [];

/** A store with only what the wsrx listeners touch, and its own listener middleware. */
export function setup(wsrx: Partial<WsrxState> = {}) {
  const listener = createListenerMiddleware();
  listeners.push(listener);
  const store = configureStore({
    reducer: { wsrx: wsrxSlice.reducer, notifications: notificationsSlice.reducer },
    preloadedState: { wsrx: { ...initialWsrxState, ...wsrx } },
    middleware: (getDefault) => getDefault().prepend(listener.middleware),
  });
  addWsrxListeners(listener.startListening.withTypes<ReturnType<typeof store.getState>, typeof store.dispatch>());
  const t = createTestI18n().t;
  return {
    store,
    state: () => store.getState().wsrx,
    notifications: () =>
      store.getState().notifications.queue.map(({ id, variant, title, message }) => ({
        id,
        variant,
        title: translateText(t, title),
        message: translateText(t, message),
      })),
  };
}

/** Lets the pending daemon calls answer, and moves the clock on by `ms`. */
export const advance = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

/** Fake timers for each test, and every polling loop a test started stopped after it. */
export function useListenerClock() {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    listeners.splice(0).forEach((listener) => listener.clearListeners());
    jest.useRealTimers();
  });
}
