/**
 * How a time is written:
 * - `compact`: digits only, e.g. "2025/06/03 14:05" (tables, lists);
 * - `seconds`: the same with seconds (logs, the scoreboard and the monitor tabs);
 * - `medium`: a worded date, e.g. "3 Jun 2025, 14:05" (game cards, posts, notices);
 * - `tick`: month, day and time without the year (chart axes).
 */
export type DateTimeStyle = 'compact' | 'seconds' | 'medium' | 'tick';

const DIGITS = { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' } as const;

const STYLES: Record<DateTimeStyle, Intl.DateTimeFormatOptions> = {
  compact: { year: 'numeric', ...DIGITS },
  seconds: { year: 'numeric', ...DIGITS, second: '2-digit' },
  medium: { dateStyle: 'medium', timeStyle: 'short' },
  tick: DIGITS,
};

/** Building a format is costly next to using one, and grids format thousands of cells. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(language: string, style: DateTimeStyle): Intl.DateTimeFormat {
  const key = `${language}|${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, STYLES[style]);
    formats.set(key, format);
  }
  return format;
}

/**
 * The one date formatter of the client: a Unix-ms time in the reader's language and time zone; '—'
 * when unknown (null, or the server's "never", which lies before 1970). A language the browser does
 * not know falls back to the ISO form rather than failing the page.
 */
export function formatDateTime(
  ms: number | null | undefined,
  language: string,
  style: DateTimeStyle = 'compact',
): string {
  if (ms == null || !Number.isFinite(ms) || ms <= 0) return '—';
  try {
    return formatFor(language, style).format(ms);
  } catch {
    return new Date(ms).toISOString();
  }
}
