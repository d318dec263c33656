// The settings module's public surface: the stored configuration sections, their defaults, and the
// public part of them that every page reads (the client config).
export { default as settingsPlugin, type SettingsStore } from './settings.plugin';
export { type AccountPolicy } from './settings.defaults';
export { getConfig, resetLogo, updateConfig, updateLogo } from './config.service';
export { toClientConfig } from './client-config.service';
