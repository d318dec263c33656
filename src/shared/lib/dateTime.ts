const formats = new Map<string, Intl.DateTimeFormat>();

const STYLE = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' } as const;

/**
 * A Unix-ms time as a compact local date and time in the reader's language (with seconds for log
 * lines); '—' when unknown.
 */
export function formatDateTime(ms: number | null | undefined, language: string, seconds = false): string {
  if (ms == null || !Number.isFinite(ms) || ms <= 0) return '—';
  const key = `${language}|${seconds}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, seconds ? { ...STYLE, second: '2-digit' } : STYLE);
    formats.set(key, format);
  }
  return format.format(ms);
}
