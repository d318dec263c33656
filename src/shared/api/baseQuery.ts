import {
  fetchBaseQuery,
  retry,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query';
import { DEFAULT_LANGUAGE } from '../i18n/languages';
import type { PreferencesState } from '../preferences/slice';
import { currentApiKey } from './encryption';

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

/**
 * Which failures of an endpoint the error notification listener keeps quiet about: `true` for all,
 * a list of statuses (numbers, or RTK's strings such as 'FETCH_ERROR'), or all but `except` (for an
 * endpoint that shows its failures inline, yet must let a rate limit reach the spec §8 "try later"
 * notification).
 */
export type QuietErrors = true | readonly (number | string)[] | { except: readonly (number | string)[] };

/**
 * Per-endpoint options, set with `extraOptions` in a feature's api.ts (`enhanceEndpoints`):
 * - `maxRetries`: lower (or 0 to disable) the retry policy for this endpoint;
 * - `quiet`: failures the notification listener must not announce, because the caller expects
 *   them (the profile probe answers 401 when signed out) or handles them itself;
 * - `encrypt`: body fields (passwords, flags) to encrypt when payload encryption is on.
 */
export interface ApiExtraOptions {
  maxRetries?: number;
  quiet?: QuietErrors;
  /** JSON body fields sent encrypted while the server publishes a payload key (./encryption.ts). */
  encrypt?: readonly string[];
}

/** What the base query adds to RTK's response meta; the rejected action carries it as `meta.baseQueryMeta`. */
export type ApiMeta = Partial<FetchBaseQueryMeta> & { quiet?: boolean };

export function isQuiet(rule: QuietErrors | undefined, status: number | string | undefined): boolean {
  if (rule === undefined) return false;
  if (rule === true) return true;
  if ('except' in rule) return status === undefined || !rule.except.includes(status);
  return status !== undefined && rule.includes(status);
}

const origin = () => (typeof window === 'undefined' ? 'http://localhost' : window.location.origin);

/**
 * JSON bodies are encoded by fetchBaseQuery (plain objects and arrays only); FormData, Blob and
 * URLSearchParams go out as they are, so the browser writes the multipart boundary itself. Never set
 * a Content-Type here.
 */
const rawBaseQuery = fetchBaseQuery({
  baseUrl: '',
  timeout: REQUEST_TIMEOUT_MS,
  credentials: 'same-origin',
  prepareHeaders(headers, { getState }) {
    const language = (getState() as { preferences?: PreferencesState }).preferences?.language;
    headers.set('Accept-Language', language ?? DEFAULT_LANGUAGE);
    return headers;
  },
});

// Absolute, because Node's fetch (tests) rejects relative URLs.
const withOrigin: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, ApiExtraOptions, ApiMeta> = (
  args,
  api,
  extraOptions,
) => {
  const request = typeof args === 'string' ? { url: args } : args;
  return rawBaseQuery({ ...request, url: new URL(request.url, origin()).href }, api, extraOptions);
};

// RTK's retry takes either `maxRetries` or `retryCondition`; the condition applies the limit itself,
// and an endpoint can lower it with `extraOptions: { maxRetries }`.
const withRetry = retry(withOrigin, {
  backoff: (attempt) => new Promise((resolve) => setTimeout(resolve, retryDelay(attempt))),
  retryCondition(error, args, { attempt, extraOptions }) {
    const limit = (extraOptions as ApiExtraOptions | undefined)?.maxRetries ?? MAX_RETRIES;
    if (attempt > limit) return false;
    const method = typeof args === 'string' ? 'GET' : (args.method ?? 'GET');
    return shouldRetry(method, error as FetchBaseQueryError);
  },
});

/** Encrypts the endpoint's `encrypt` fields once, before any retry, when the server asks for it. */
async function withEncryptedFields(
  args: string | FetchArgs,
  state: unknown,
  { encrypt }: ApiExtraOptions,
): Promise<string | FetchArgs> {
  if (!encrypt || typeof args === 'string' || !isPlainObject(args.body)) return args;
  const key = currentApiKey(state);
  // Web Crypto exists only in secure contexts (HTTPS, localhost); elsewhere the server refuses the
  // plain value with its own "required" message, which says more than a client-side crash would.
  if (!key || !globalThis.crypto?.subtle) return args;
  const { encryptFields } = await import(/* webpackChunkName: "encryption" */ './encryptFields');
  return { ...args, body: await encryptFields(args.body, encrypt, key) };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** The base query of the one API: origin, Accept-Language, timeout, retries, and the quiet marker. */
export const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  ApiExtraOptions,
  ApiMeta
> = async (args, api, extraOptions = {}) => {
  const result = await withRetry(await withEncryptedFields(args, api.getState(), extraOptions), api, extraOptions);
  if (result.error && isQuiet(extraOptions.quiet, result.error.status)) {
    return { ...result, meta: { ...result.meta, quiet: true } };
  }
  return result;
};
