import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

/**
 * The one API slice. Each feature's generated endpoints are injected into it, so cache tags invalidate
 * across features (joining a team refreshes the game page, and so on).
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  endpoints: () => ({}),
});
