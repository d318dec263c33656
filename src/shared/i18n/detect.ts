import { DEFAULT_LANGUAGE, matchLanguage, type Language } from './languages';

/**
 * Language detection and the checks on what it reads (spec §5). Everything here is pure so the
 * rules can be tested without a browser; src/app feeds it the real query string, stored choice and
 * navigator languages.
 */

/** Longest language tag we consider; real BCP 47 tags in the wild stay well below it. */
const MAX_TAG_LENGTH = 35;

/** Fragments that never occur in a language tag but do in script or markup injection attempts. */
const INJECTION_PATTERNS: readonly RegExp[] = [
  /[<>"'`]/,
  /[(){};=&\\]/,
  /javascript:|vbscript:|data:/i,
  /\bon[a-z]+\s*=/i,
  /%3c|%3e|%22|&#|&lt;|&gt;/i,
  // Control characters never occur in a language tag; matching them is the point here.
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f]/,
];

/** Whether a detected value looks like script or markup injection rather than a language tag. */
export function looksLikeInjection(value: string): boolean {
  return INJECTION_PATTERNS.some((pattern) => pattern.test(value));
}

/** A well-formed language tag: letters, digits and `-`/`_` separated subtags, short. */
export function isWellFormedLanguageTag(value: string): boolean {
  return value.length <= MAX_TAG_LENGTH && /^[a-z]{2,3}(?:[-_][a-z0-9]{1,8})*$/i.test(value);
}

/**
 * A detected value we are willing to look at, trimmed; undefined (with a console warning) when it
 * looks like injection or is not a language tag at all.
 */
export function sanitizeDetectedLanguage(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text) return undefined;
  if (looksLikeInjection(text) || !isWellFormedLanguageTag(text)) {
    console.warn('Ignoring a detected language value that is not a language tag.');
    return undefined;
  }
  return text;
}

/** Regional variants we map onto the closest supported language when the browser asks for them. */
const BY_PRIMARY_SUBTAG: Record<string, Language> = {
  en: 'en-US',
  zh: 'zh-CN',
  ja: 'ja-JP',
  id: 'id-ID',
  in: 'id-ID',
  ko: 'ko-KR',
  ru: 'ru-RU',
  vi: 'vi-VN',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
};
const TRADITIONAL_CHINESE = /^zh[-_](?:tw|hk|mo|hant)\b/i;

/**
 * The supported language closest to a browser language: an exact (case-insensitive) match first,
 * then by the primary subtag (`fr-CA` -> fr-FR, `zh-HK`/`zh-Hant` -> zh-TW).
 */
export function closestLanguage(tag: string): Language | undefined {
  const exact = matchLanguage(tag);
  if (exact) return exact;
  if (TRADITIONAL_CHINESE.test(tag)) return 'zh-TW';
  const primary = tag.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return BY_PRIMARY_SUBTAG[primary];
}

/**
 * The language a requested value resolves to: the supported one it names (case-insensitive), or
 * en-US with a console warning when it names none (spec §5).
 */
export function resolveLanguage(requested: string | null | undefined): Language {
  const language = matchLanguage(requested);
  if (language) return language;
  if (requested) console.warn(`Unsupported language "${requested}"; falling back to ${DEFAULT_LANGUAGE}.`);
  return DEFAULT_LANGUAGE;
}

export interface LanguageSources {
  /** `?lang=` of the address, an explicit request that wins over everything else. */
  query?: string | null;
  /** The language this browser chose or was given before (persisted preferences). */
  stored?: string | null;
  /** `navigator.languages`, most preferred first. */
  navigatorLanguages?: readonly string[];
}

/**
 * Picks the language to start with: `?lang=` when it names a supported language, then the stored
 * choice, then the first navigator language we can serve, else en-US. Values that look like injection
 * are discarded; an explicit but unsupported `?lang=` or stored value is reported and skipped.
 */
export function detectLanguage({ query, stored, navigatorLanguages = [] }: LanguageSources): Language {
  for (const candidate of [query, stored]) {
    const tag = sanitizeDetectedLanguage(candidate);
    if (!tag) continue;
    const language = matchLanguage(tag);
    if (language) return language;
    console.warn(`Unsupported language "${tag}"; falling back to ${DEFAULT_LANGUAGE}.`);
  }
  for (const candidate of navigatorLanguages) {
    const tag = sanitizeDetectedLanguage(candidate);
    const language = tag ? closestLanguage(tag) : undefined;
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}
