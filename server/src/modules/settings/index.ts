// The settings module's public surface: the stored configuration sections and their defaults.
export { default as settingsPlugin, type SettingsStore } from './settings.plugin';
export { type AccountPolicy, type Settings } from './settings.defaults';
export { getConfig, resetLogo, updateConfig, updateLogo } from './config.service';
