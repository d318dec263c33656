import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { baseApi } from '@/shared/api/baseApi';
import { preferencesSlice } from '@/shared/preferences/slice';
import { listenerMiddleware } from './listenerMiddleware';

const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  [preferencesSlice.reducerPath]: preferencesSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** Builds a store; tests pass a preloaded state to start from a known point. */
export function setupStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().prepend(listenerMiddleware.middleware).concat(baseApi.middleware),
  });
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
