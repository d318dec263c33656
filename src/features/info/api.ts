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

/** The client config is fetched once per page load: kept forever, no refetch on focus, no retry (spec §7). */
export const api = infoApi.enhanceEndpoints({
  endpoints: {
    infoGetClientConfig: {
      keepUnusedDataFor: Number.POSITIVE_INFINITY,
      extraOptions: { maxRetries: 0 },
    },
  },
});

export function useClientConfig() {
  const result = api.useInfoGetClientConfigQuery(undefined, { refetchOnFocus: false, refetchOnReconnect: false });
  return { ...result, config: result.data ?? DEFAULT_CLIENT_CONFIG };
}
