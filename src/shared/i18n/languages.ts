/** The platform's languages (spec §9). en-US is the default and the source of every key. */
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

/** Case-insensitive match of a requested language to a supported one (spec §5). */
export function matchLanguage(requested: string | null | undefined): Language | undefined {
  if (!requested) return undefined;
  const lower = requested.trim().toLowerCase();
  return LANGUAGES.find((language) => language.toLowerCase() === lower);
}
