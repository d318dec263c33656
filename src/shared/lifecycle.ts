import { createAction } from '@reduxjs/toolkit';

/**
 * Dispatched once per page load, after the local cache was restored and the language chosen; the
 * moment for features' start-up work (e.g. refreshing data the cache restored).
 */
export const appStarted = createAction('app/started');
