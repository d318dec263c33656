import type { TFunction } from 'i18next';

/**
 * A text to show later: an i18n key (with values), or text that is already in the reader's language
 * (a server message). Lets non-React code (listeners, helpers) describe texts without holding `t`.
 */
export type TextRef = { key: string; values?: Record<string, string | number> } | { text: string };

export const textKey = (key: string, values?: Record<string, string | number>): TextRef =>
  values ? { key, values } : { key };

export function translateText(t: TFunction, ref: TextRef): string {
  return 'text' in ref ? ref.text : t(ref.key, ref.values);
}
