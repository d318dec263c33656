import { setApiKeySource } from '@/shared/api/encryption';
import { infoApi, type ClientConfig } from './api.generated';

export type { ClientConfig } from './api.generated';

/** Spec §9 defaults, shown until the server answers so the frame never renders empty. */
export const DEFAULT_CLIENT_CONFIG: ClientConfig = {
  title: 'GZ',
  slogan: 'Hack for fun not for profit',
  footerInfo: null,
  customTheme: null,
  apiPublicKey: null,
  logoUrl: null,
  portMapping: 'Default',
  defaultLifetime: 120,
  extensionDuration: 120,
  renewalWindow: 10,
};

/** Endpoints whose data the local cache keeps across visits (see src/app/persist.ts). */
export const PERSISTED_INFO_ENDPOINTS = ['infoGetClientConfig'] as const;

/**
 * The client config is fetched once per page load (spec §7): kept forever, no refetch on focus, no
 * retry, and quiet on failure: the frame falls back to the cached or default config instead of
 * alarming a visitor.
 */
export const api = infoApi.enhanceEndpoints({
  endpoints: {
    infoGetClientConfig: {
      keepUnusedDataFor: Number.POSITIVE_INFINITY,
      extraOptions: { maxRetries: 0, quiet: true },
    },
    // Without captcha settings a form simply shows no captcha; the server still decides.
    infoGetCaptchaConfig: { extraOptions: { quiet: true } },
    // Each call mints a fresh single-use challenge: nothing cached goes stale (the generated
    // invalidation of 'Info' would refetch the client config), and the widget reports failures
    // itself, except a rate limit, which gets the "try later" notification (spec §8).
    infoPowChallenge: { invalidatesTags: [], extraOptions: { maxRetries: 0, quiet: { except: [429] } } },
  },
});

export function useClientConfig() {
  const result = api.useInfoGetClientConfigQuery(undefined, { refetchOnFocus: false, refetchOnReconnect: false });
  return { ...result, config: result.data ?? DEFAULT_CLIENT_CONFIG };
}

const selectConfigResult = api.endpoints.infoGetClientConfig.select();

/**
 * The config as last received (or restored from the local cache), without subscribing to or
 * fetching it: for the theme, which renders before the cache is restored and must not start a
 * request the restore would then overwrite.
 */
// The root state's type knows the base API without this feature's tags, hence the cast.
export const selectClientConfig = (state: { api: unknown }): ClientConfig =>
  selectConfigResult(state as Parameters<typeof selectConfigResult>[0]).data ?? DEFAULT_CLIENT_CONFIG;

// Passwords and flags are encrypted for the key the platform publishes, while it publishes one.
setApiKeySource((state) => selectClientConfig(state as { api: unknown }).apiPublicKey);

/** The captcha the account forms show (`GET /api/captcha`); 'None' until known or when it fails. */
export function useCaptchaConfig() {
  const { data } = api.useInfoGetCaptchaConfigQuery();
  return { provider: data?.type ?? 'None', siteKey: data?.siteKey ?? '' };
}

/** Mints a HashPow challenge (`GET /api/captcha/powchallenge`), single-use and valid 5 minutes. */
export const usePowChallengeMutation = api.useInfoPowChallengeMutation;
