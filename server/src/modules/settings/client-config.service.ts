import type { Settings } from './settings.defaults';

export interface ClientConfig {
  title: string;
  slogan: string;
  footerInfo: string | null;
  customTheme: string | null;
  apiPublicKey: string | null;
  logoUrl: string | null;
  portMapping: 'Default' | 'PlatformProxy';
  defaultLifetime: number;
  extensionDuration: number;
  renewalWindow: number;
}

/** The public subset of the settings that every page needs before anyone signs in (reference §3.3). */
export function toClientConfig(settings: Settings, portMapping: ClientConfig['portMapping']): ClientConfig {
  const { globalConfig, containerPolicy } = settings;
  return {
    title: globalConfig.title,
    slogan: globalConfig.slogan,
    footerInfo: globalConfig.footerInfo,
    customTheme: globalConfig.customTheme,
    // Clients encrypt passwords and flags only while encryption is on (reference §1.5).
    apiPublicKey: globalConfig.apiEncryption ? globalConfig.apiPublicKey : null,
    logoUrl: globalConfig.logoHash ? `/assets/${globalConfig.logoHash}/logo` : null,
    portMapping,
    defaultLifetime: containerPolicy.defaultLifetime,
    extensionDuration: containerPolicy.extensionDuration,
    renewalWindow: containerPolicy.renewalWindow,
  };
}
