import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '@/shared/i18n/languages';

const LOCALES = path.resolve(__dirname, '../../locales');

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

const read = (language: string, file: string) =>
  JSON.parse(fs.readFileSync(path.join(LOCALES, language, file), 'utf8')) as unknown;

const sourceFiles = fs.readdirSync(path.join(LOCALES, 'en-US')).filter((file) => file.endsWith('.json'));

describe('translations', () => {
  it('exist for exactly the 11 languages, each with every en-US namespace', () => {
    expect(fs.readdirSync(LOCALES).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      expect(fs.readdirSync(path.join(LOCALES, language)).sort()).toEqual([...sourceFiles].sort());
    }
  });

  it.each(sourceFiles)('%s has the same keys in every language as in en-US', (file) => {
    const expected = keys(read('en-US', file)).sort();
    for (const language of LANGUAGES) {
      expect({ language, keys: keys(read(language, file)).sort() }).toEqual({ language, keys: expected });
    }
  });

  it.each(sourceFiles)('%s has no empty texts and keeps every {{placeholder}}', (file) => {
    const source = read('en-US', file);
    const flatten = (value: unknown, prefix = ''): Array<[string, string]> =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key))
        : [[prefix, String(value)]];
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();
    const english = new Map(flatten(source));
    for (const language of LANGUAGES) {
      for (const [key, text] of flatten(read(language, file))) {
        expect({ language, key, empty: text.trim() === '' }).toEqual({ language, key, empty: false });
        expect({ language, key, placeholders: placeholders(text) }).toEqual({
          language,
          key,
          placeholders: placeholders(english.get(key) ?? ''),
        });
      }
    }
  });
});
