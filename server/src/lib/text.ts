import { badRequest } from './http-error';

type Text = string | null | undefined | readonly string[];

/**
 * PostgreSQL text cannot hold U+0000, so such input would fail deep in the database with a 500.
 * Markdown and other text are otherwise stored exactly as given.
 */
export function rejectNul(...values: Text[]): void {
  for (const value of values) {
    const items = typeof value === 'string' ? [value] : (value ?? []);
    if (items.some((item) => item.includes('\u0000'))) throw badRequest('edit.nulCharacter');
  }
}
