// The client's module owns the list (the language menu names and orders it); it imports nothing, so
// the server runs it as it is (the image copies that one file, see Dockerfile).
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../../src/shared/i18n/languages';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language };

const byLowerCase = new Map<string, Language>(LANGUAGES.map((language) => [language.toLowerCase(), language]));
/** Primary subtag -> language, for headers such as `fr` or `zh-Hant`. Chinese scripts need their own rule. */
const byPrimary = new Map<string, Language>(
  LANGUAGES.filter((language) => !language.startsWith('zh')).map((language) => [
    language.slice(0, 2).toLowerCase(),
    language,
  ]),
);

function matchTag(tag: string): Language | undefined {
  const lower = tag.trim().toLowerCase();
  const exact = byLowerCase.get(lower);
  if (exact) return exact;
  if (lower.startsWith('zh')) {
    return /hant|-tw|-hk|-mo/.test(lower) ? 'zh-TW' : 'zh-CN';
  }
  return byPrimary.get(lower.split('-')[0] ?? '');
}

/** Picks the best supported language from an Accept-Language header (RFC 9110 quality values). */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const candidates = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const quality = params
        .map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1])
        .find((value) => value !== undefined);
      return { tag, quality: quality === undefined ? 1 : Number(quality), index };
    })
    .filter((candidate) => candidate.tag.trim() !== '' && candidate.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const candidate of candidates) {
    const language = matchTag(candidate.tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}
