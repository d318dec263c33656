import {
  fetchBaseQuery,
  retry,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query';
import type { PreferencesState } from '../preferences/slice';

/** Spec §7 client behaviour: 10 s timeout, two retries for idempotent methods on transient statuses. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const MAX_RETRIES = 2;
export const RETRY_BASE_DELAY_MS = 300;
export const RETRY_METHODS = new Set(['GET', 'PUT', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);
export const RETRY_STATUSES = new Set([408, 413, 429, 500, 502, 503, 504]);

/** Delay before retry number `attempt` (1-based): 0.3 s × 2^(attempt − 1). */
export const retryDelay = (attempt: number) => RETRY_BASE_DELAY_MS * 2 ** (attempt - 1);

export function shouldRetry(method: string, error: FetchBaseQueryError): boolean {
  return (
    RETRY_METHODS.has(method.toUpperCase()) && typeof error.status === 'number' && RETRY_STATUSES.has(error.status)
  );
}

const origin = () => (typeof window === 'undefined' ? 'http://localhost' : window.location.origin);

const rawBaseQuery = fetchBaseQuery({
  // Absolute, because Node's fetch (tests) rejects relative URLs.
  baseUrl: '',
  timeout: REQUEST_TIMEOUT_MS,
  credentials: 'same-origin',
  prepareHeaders(headers, { getState }) {
    const language = (getState() as { preferences?: PreferencesState }).preferences?.language;
    if (language) headers.set('Accept-Language', language);
    return headers;
  },
});

const withOrigin: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = (args, api, extraOptions) => {
  const request = typeof args === 'string' ? { url: args } : args;
  return rawBaseQuery({ ...request, url: new URL(request.url, origin()).href }, api, extraOptions);
};

// RTK's retry takes either `maxRetries` or `retryCondition`; the condition applies the limit itself,
// and an endpoint can lower it with `extraOptions: { maxRetries }`.
export const baseQuery = retry(withOrigin, {
  backoff: (attempt) => new Promise((resolve) => setTimeout(resolve, retryDelay(attempt))),
  retryCondition(error, args, { attempt, extraOptions }) {
    const limit = (extraOptions as { maxRetries?: number } | undefined)?.maxRetries ?? MAX_RETRIES;
    if (attempt > limit) return false;
    const method = typeof args === 'string' ? 'GET' : (args.method ?? 'GET');
    return shouldRetry(method, error as FetchBaseQueryError);
  },
});
