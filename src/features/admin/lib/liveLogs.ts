import type { AdminLogsApiArg, LogMessageModel } from '../api';

/** Hub payloads carry the time as an ISO string (reference §1.1, §6); the page works in Unix ms. */
function toUnixMs(time: unknown): number {
  if (typeof time === 'number') return time;
  const parsed = typeof time === 'string' ? Date.parse(time) : Number.NaN;
  return Number.isNaN(parsed) ? Date.now() : parsed;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** A `ReceivedLog` payload of `/hub/admin` as the list's rows look. */
export function logFromHub(payload: unknown): LogMessageModel {
  const raw = (payload ?? {}) as Record<string, unknown>;
  return {
    time: toUnixMs(raw.time),
    name: text(raw.name),
    level: text(raw.level),
    ip: text(raw.ip),
    msg: text(raw.msg),
    status: text(raw.status),
  };
}

const sameLine = (a: LogMessageModel, b: LogMessageModel) =>
  a.time === b.time &&
  a.level === b.level &&
  a.msg === b.msg &&
  a.name === b.name &&
  a.ip === b.ip &&
  (a.status ?? null) === (b.status ?? null);

/** Whether the page `arg` asks for would list a line of this level (the server filters exactly). */
const levelMatches = (arg: AdminLogsApiArg, level: string | null | undefined) =>
  !arg.level || arg.level === 'All' || arg.level === level;

/**
 * A pushed line goes on top of the cached first page (newest first) when that page's level filter
 * admits it; the page keeps its size. Later pages shift on their next poll instead of under the
 * reader's eyes.
 */
export function addLiveLog(list: LogMessageModel[], payload: unknown, arg: AdminLogsApiArg): void {
  if (arg.skip) return;
  const line = logFromHub(payload);
  if (!levelMatches(arg, line.level)) return;
  list.unshift(line);
  if (arg.count && list.length > arg.count) list.length = arg.count;
}

/**
 * The first page as a poll (or a Refresh) brings it, plus the pushed lines it does not hold yet. The
 * server stores log lines in batches (every 10 s, or past 50 waiting: reference §5.18) but pushes
 * each at once, so a poll may come back without the newest pushed lines; dropping them would make
 * them blink out and back. A cached line newer than (or as new as, and not in) the polled page is
 * such a line; once the database has it, the polled page does, and the copy goes.
 */
export function mergeLogPage(
  cached: LogMessageModel[],
  polled: LogMessageModel[],
  arg: AdminLogsApiArg,
): LogMessageModel[] {
  if (arg.skip) return polled;
  const newest = polled[0]?.time ?? Number.NEGATIVE_INFINITY;
  const pending = cached.filter(
    (line) => (line.time ?? 0) >= newest && !polled.some((stored) => sameLine(stored, line)),
  );
  const merged = [...pending, ...polled];
  return arg.count ? merged.slice(0, arg.count) : merged;
}
