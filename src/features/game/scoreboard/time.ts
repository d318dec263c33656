const formats = new Map<string, Intl.DateTimeFormat>();

const STYLE = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
} as const;

/**
 * A Unix-ms time as a local date and time in the reader's language; '—' when unknown (the server's
 * "no solve yet" is far before 1970). Shared by the scoreboard and the monitor tabs.
 */
export function formatTime(ms: number | null | undefined, language: string): string {
  if (ms == null || !Number.isFinite(ms) || ms <= 0) return '—';
  let format = formats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, STYLE);
    formats.set(language, format);
  }
  return format.format(ms);
}
