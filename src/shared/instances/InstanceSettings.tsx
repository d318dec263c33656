import { createContext, useContext } from 'react';

/** The platform's container settings from the client config, as the instance panels need them. */
export interface InstanceSettings {
  portMapping: 'Default' | 'PlatformProxy';
  /** Minutes before expiry from which an instance may be renewed. */
  renewalWindow: number;
  /** Minutes a renewal adds. */
  extensionDuration: number;
}

export const DEFAULT_INSTANCE_SETTINGS: InstanceSettings = {
  portMapping: 'Default',
  renewalWindow: 10,
  extensionDuration: 120,
};

/**
 * Provided by the app from the info feature's client config, so the game and edit features can
 * read it without importing another feature.
 */
export const InstanceSettingsContext = createContext<InstanceSettings>(DEFAULT_INSTANCE_SETTINGS);

export function useInstanceSettings(): InstanceSettings {
  return useContext(InstanceSettingsContext);
}
