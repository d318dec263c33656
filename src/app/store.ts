import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import { wsrxSlice } from '@/features/wsrx/slice';
import { baseApi } from '@/shared/api/baseApi';
import { notificationsSlice } from '@/shared/notifications/slice';
import { preferencesSlice } from '@/shared/preferences/slice';
import { startAppListening, listenerMiddleware } from './listenerMiddleware';
import { addAppListeners } from './listeners';
import { persistRootReducer } from './persist';

const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  [preferencesSlice.reducerPath]: preferencesSlice.reducer,
  [notificationsSlice.reducerPath]: notificationsSlice.reducer,
  [wsrxSlice.reducerPath]: wsrxSlice.reducer,
});

const persistedReducer = persistRootReducer(rootReducer);

export type RootState = ReturnType<typeof persistedReducer>;

/** Builds a store; tests pass a preloaded state to start from a known point. */
export function setupStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: persistedReducer,
    // Missing slices start from their initial state (combineReducers fills them in).
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) =>
      getDefault({
        // The development-only checks warn when one walk of the state takes over 32 ms; in tests on a
        // busy 2-core machine a page of cached rows crossed that now and then, which says nothing about
        // the app, so they warn only past 128 ms.
        immutableCheck: { warnAfter: 128 },
        // redux-persist's own actions carry functions (stack-notes §7).
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER], warnAfter: 128 },
      })
        .prepend(listenerMiddleware.middleware)
        .concat(baseApi.middleware),
  });
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];

// Once per page: the listeners live on the module-level middleware every store shares.
addAppListeners(startAppListening);
