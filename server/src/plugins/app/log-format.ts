import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * How the console shows the logger's records. pino writes one JSON object per line, which log
 * collectors want but a person at a terminal cannot read; so when stdout is a terminal each record
 * becomes one line: time, level, message, then the fields that say where and who.
 */

interface ConsoleRecord {
  level?: unknown;
  time?: unknown;
  msg?: unknown;
  err?: { message?: unknown; type?: unknown } | null;
  req?: { method?: unknown; url?: unknown } | null;
  res?: { statusCode?: unknown } | null;
  responseTime?: unknown;
  [field: string]: unknown;
}

const LEVEL_LABELS: Array<[number, string]> = [
  [60, 'FATAL'],
  [50, 'ERROR'],
  [40, 'WARN'],
  [30, 'INFO'],
  [20, 'DEBUG'],
  [10, 'TRACE'],
];

// Shown by their own part of the line (or not at all: pid and hostname are the same on every line).
const OWN_PART = new Set(['level', 'time', 'msg', 'err', 'req', 'res', 'responseTime', 'pid', 'hostname', 'v']);

function levelLabel(level: unknown): string {
  if (typeof level !== 'number') return 'LOG';
  return LEVEL_LABELS.find(([floor]) => level >= floor)?.[1] ?? 'TRACE';
}

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  // Local time of day, to the millisecond: a terminal session rarely spans days.
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** A field's value as it reads on the line: strings bare unless they hold spaces, the rest as JSON. */
function fieldValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** One pino record as one readable line (no trailing newline). */
export function formatLogLine(record: ConsoleRecord): string {
  const parts = [clock(record.time), levelLabel(record.level).padEnd(5)];
  if (record.req && typeof record.req.method === 'string') parts.push(`${record.req.method} ${String(record.req.url)}`);
  if (typeof record.msg === 'string' && record.msg !== '') parts.push(record.msg);
  if (record.res && typeof record.res.statusCode === 'number') parts.push(String(record.res.statusCode));
  if (typeof record.responseTime === 'number') parts.push(`${record.responseTime.toFixed(1)} ms`);
  if (record.err && typeof record.err.message === 'string' && record.err.message !== record.msg)
    parts.push(`(${typeof record.err.type === 'string' ? `${record.err.type}: ` : ''}${record.err.message})`);
  for (const [key, value] of Object.entries(record)) {
    if (OWN_PART.has(key) || value === undefined) continue;
    parts.push(`${key}=${fieldValue(value)}`);
  }
  return parts.join(' ');
}

/**
 * Fastify's per-request lines ("incoming request", "request completed") at `debug` rather than
 * `info`: on a busy server they drown every other line, so they show only when LOG_LEVEL asks for
 * debug. Failed requests keep Fastify's `error` line.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (this.isLogDisabled(request)) return;
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    const { url, method } = request.raw;
    request.log.debug(`Route ${method}:${url} not found`);
  }
}
