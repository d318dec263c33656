/**
 * Platform settings with GZCTF 1.4.0's defaults (reference §3.3). Stored rows in the `config` table
 * override them key by key, so a fresh database needs no seeding.
 */
export interface AccountPolicy {
  allowRegister: boolean;
  activeOnRegister: boolean;
  useCaptcha: boolean;
  emailConfirmationRequired: boolean;
  emailDomainList: string;
}

export interface GlobalConfig {
  title: string;
  slogan: string;
  description: string | null;
  footerInfo: string | null;
  customTheme: string | null;
  apiEncryption: boolean;
  /**
   * The payload encryption key pair (reference §1.5), made when encryption is first switched on;
   * the private half XOR-ed with XOR_KEY. Neither is part of the admin's config model.
   */
  apiPublicKey: string | null;
  apiPrivateKey: string | null;
  logoHash: string | null;
  faviconHash: string | null;
}

export interface ContainerPolicy {
  autoDestroyOnLimitReached: boolean;
  maxExerciseContainerCountPerUser: number;
  defaultLifetime: number;
  extensionDuration: number;
  renewalWindow: number;
}

export interface Settings {
  accountPolicy: AccountPolicy;
  globalConfig: GlobalConfig;
  containerPolicy: ContainerPolicy;
}

export type SettingsSection = keyof Settings;
export const SETTINGS_SECTIONS: readonly SettingsSection[] = ['accountPolicy', 'globalConfig', 'containerPolicy'];

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  accountPolicy: {
    allowRegister: true,
    activeOnRegister: true,
    useCaptcha: false,
    emailConfirmationRequired: false,
    emailDomainList: '',
  },
  globalConfig: {
    title: 'GZ',
    slogan: 'Hack for fun not for profit',
    description: null,
    footerInfo: null,
    customTheme: null,
    apiEncryption: false,
    apiPublicKey: null,
    apiPrivateKey: null,
    logoHash: null,
    faviconHash: null,
  },
  containerPolicy: {
    autoDestroyOnLimitReached: false,
    maxExerciseContainerCountPerUser: 1,
    defaultLifetime: 120,
    extensionDuration: 120,
    renewalWindow: 10,
  },
});
