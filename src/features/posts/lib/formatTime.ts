/** A post's time (Unix ms) as a date and time in the reader's language, e.g. "3 Jun 2025, 14:05". */
export function formatPostTime(time: number, language: string): string {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(time);
  } catch {
    return new Date(time).toISOString();
  }
}
