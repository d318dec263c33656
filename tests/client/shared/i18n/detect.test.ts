import {
  closestLanguage,
  detectLanguage,
  looksLikeInjection,
  resolveLanguage,
  sanitizeDetectedLanguage,
} from '@/shared/i18n/detect';
import { matchLanguage } from '@/shared/i18n/languages';

let warn: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

describe('language matching (spec §5)', () => {
  it('is case-insensitive and reads _ as -', () => {
    expect(matchLanguage('ZH-cn')).toBe('zh-CN');
    expect(matchLanguage(' fr-fr ')).toBe('fr-FR');
    expect(matchLanguage('ja_JP')).toBe('ja-JP');
    expect(matchLanguage('xx-YY')).toBeUndefined();
  });

  it('falls back to en-US with a console warning for an unsupported language', () => {
    expect(resolveLanguage('tlh-KL')).toBe('en-US');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('tlh-KL'));
    expect(resolveLanguage('KO-kr')).toBe('ko-KR');
  });

  it('maps browser variants onto the closest supported language', () => {
    expect(closestLanguage('fr-CA')).toBe('fr-FR');
    expect(closestLanguage('en')).toBe('en-US');
    expect(closestLanguage('en-GB')).toBe('en-US');
    expect(closestLanguage('zh-HK')).toBe('zh-TW');
    expect(closestLanguage('zh-Hant-TW')).toBe('zh-TW');
    expect(closestLanguage('zh')).toBe('zh-CN');
    expect(closestLanguage('pt-BR')).toBeUndefined();
  });
});

describe('injection filtering', () => {
  it.each([
    '<script>alert(1)</script>',
    'en-US"><img src=x onerror=alert(1)>',
    "en-US' onmouseover='x",
    'javascript:alert(1)',
    'en-US;alert(1)',
    'alert(document.cookie)',
    'en-US%3Cscript%3E',
    '{{constructor}}',
    'zh-CN&#60;',
    'en\nUS',
  ])('discards %j', (value) => {
    expect(looksLikeInjection(value)).toBe(true);
    expect(sanitizeDetectedLanguage(value)).toBeUndefined();
  });

  it('keeps well-formed language tags', () => {
    for (const tag of ['en-US', 'zh-Hant-TW', 'fr', 'es-419', 'ja_JP']) {
      expect(sanitizeDetectedLanguage(tag)).toBe(tag);
    }
  });

  it('discards values that are not language tags at all', () => {
    expect(sanitizeDetectedLanguage('hello world')).toBeUndefined();
    expect(sanitizeDetectedLanguage('a'.repeat(60))).toBeUndefined();
    expect(sanitizeDetectedLanguage(42)).toBeUndefined();
  });
});

describe('detectLanguage', () => {
  it('prefers ?lang=, then the stored choice, then the browser, then en-US', () => {
    expect(detectLanguage({ query: 'ja-jp', stored: 'ko-KR', navigatorLanguages: ['ru-RU'] })).toBe('ja-JP');
    expect(detectLanguage({ stored: 'ko-KR', navigatorLanguages: ['ru-RU'] })).toBe('ko-KR');
    expect(detectLanguage({ navigatorLanguages: ['pt-BR', 'vi'] })).toBe('vi-VN');
    expect(detectLanguage({})).toBe('en-US');
  });

  it('skips an injected or unsupported value and warns', () => {
    expect(detectLanguage({ query: '<script>x</script>', navigatorLanguages: ['de-DE'] })).toBe('de-DE');
    expect(detectLanguage({ query: 'javascript:alert(1)', stored: 'zh-TW' })).toBe('zh-TW');
    expect(detectLanguage({ query: 'xx-XX' })).toBe('en-US');
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('never returns an injected value, whatever the sources say', () => {
    const evil = ['"><svg onload=alert(1)>', 'en-US<x>', 'en;', '(en)'];
    expect(detectLanguage({ query: evil[0], stored: evil[1], navigatorLanguages: evil })).toBe('en-US');
  });
});
