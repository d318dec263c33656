/**
 * The platform's languages (spec §9). en-US is the default and the source of every key. The server
 * reads this list too (server/src/i18n/languages.ts), so this module must stay free of imports.
 */
export const LANGUAGES = [
  'en-US',
  'zh-CN',
  'zh-TW',
  'ja-JP',
  'id-ID',
  'ko-KR',
  'ru-RU',
  'vi-VN',
  'de-DE',
  'fr-FR',
  'es-ES',
] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Languages whose texts were machine-translated: choosing one asks for confirmation first (spec §2). */
export const MACHINE_TRANSLATED: readonly Language[] = ['de-DE', 'fr-FR', 'es-ES'];

export const isMachineTranslated = (language: Language) => MACHINE_TRANSLATED.includes(language);

/** Each language's name in that language, as the switcher lists it (never translated). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-US': 'English',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  'ja-JP': '日本語',
  'id-ID': 'Bahasa Indonesia',
  'ko-KR': '한국어',
  'ru-RU': 'Русский',
  'vi-VN': 'Tiếng Việt',
  'de-DE': 'Deutsch',
  'fr-FR': 'Français',
  'es-ES': 'Español',
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** Case-insensitive match of a requested language to a supported one (spec §5); `_` counts as `-`. */
export function matchLanguage(requested: string | null | undefined): Language | undefined {
  if (!requested) return undefined;
  const lower = requested.trim().replace(/_/g, '-').toLowerCase();
  return LANGUAGES.find((language) => language.toLowerCase() === lower);
}
