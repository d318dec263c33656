import type { Language } from './languages';

declare const __LOCALE_FILES__: Record<string, string> | undefined;

/**
 * The content-hashed language files the build emitted under /static/ (see webpack.config.ts), by
 * language. Jest has no build step, so there the map is empty.
 */
export const LOCALE_FILES: Partial<Record<Language, string>> =
  typeof __LOCALE_FILES__ === 'undefined' ? {} : __LOCALE_FILES__;
