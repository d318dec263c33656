import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import { formatLogLine } from './log-format';
import { lazyChild } from './lazy-logger';
import { insertLogRows, LOG_INSERT_MAX_ROWS, type NewLogRow } from './logs.repository';

/**
 * The admin log page's data (GZCTF's database sink, reference §5.18).
 *
 * Design: the server has one logger, pino, and its output goes through `createLogStream`, which
 * writes each line to the console (at LOG_LEVEL) and hands Information-and-above records to a
 * `LogSink` that stores them in batches (more than 50 waiting, every 10 s, and on close). So any
 * module records a notable event with the ordinary `request.log.info({ status: 'Success' }, '…')`;
 * there is no second logging API to learn. The sink leaves out Fastify's per-request lines
 * ("incoming request", "request completed"): they are request noise, not events an admin reads.
 *
 * Each request's logger is bound to the caller's IP, user name ("Anonymous" when signed out) and the
 * operation's tag, so stored entries say who did what where.
 * `status` is a TaskStatus name (Success, Failed, Denied…) when the log call passes one.
 */

/** Serilog's level names, which GZCTF stores and the admin page filters by. */
export const LOG_LEVELS = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Fatal'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

const PINO_LEVELS: Record<Env['logLevel'], number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};
const INFO = PINO_LEVELS.info;
const MAX_MESSAGE_LENGTH = 8_000;

export function levelName(level: number): LogLevelName {
  if (level >= 60) return 'Fatal';
  if (level >= 50) return 'Error';
  if (level >= 40) return 'Warning';
  if (level >= 30) return 'Information';
  if (level >= 20) return 'Debug';
  return 'Verbose';
}

export interface LogSinkOptions {
  /** Flush as soon as more than this many entries wait. */
  maxBatch?: number;
  intervalMs?: number;
}

/** Buffers log entries and writes them to the `logs` table; emits `entry` for live listeners. */
export class LogSink extends EventEmitter<{ entry: [NewLogRow] }> {
  private buffer: NewLogRow[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly maxBatch: number;

  constructor(
    private readonly db: Db,
    options: LogSinkOptions = {},
  ) {
    super();
    this.maxBatch = options.maxBatch ?? 50;
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 10_000);
    this.timer.unref();
  }

  add(entry: NewLogRow): void {
    this.buffer.push(entry);
    this.emit('entry', entry);
    if (this.buffer.length > this.maxBatch) void this.flush();
  }

  /** Writes everything buffered so far; resolves when it is stored (or reported as lost). */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch = this.buffer.splice(0);
    // A backlog (entries piling up while a write hung) goes in several statements; one that fails
    // loses its own entries only.
    for (let start = 0; start < batch.length; start += LOG_INSERT_MAX_ROWS) {
      const chunk = batch.slice(start, start + LOG_INSERT_MAX_ROWS);
      try {
        await insertLogRows(this.db, chunk);
      } catch (error) {
        // Not through the logger: that would feed the failure back into this sink.
        process.stderr.write(
          `could not store ${chunk.length} log entries: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  }
}

interface PinoRecord {
  level?: unknown;
  time?: unknown;
  msg?: unknown;
  err?: { message?: unknown; stack?: unknown };
  userName?: unknown;
  ip?: unknown;
  status?: unknown;
  logger?: unknown;
  req?: unknown;
  res?: unknown;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The stored form of a pino record, or undefined when it is not for the admin page. */
export function toLogRow(record: PinoRecord): NewLogRow | undefined {
  if (typeof record.level !== 'number' || record.level < INFO) return undefined;
  // Fastify's own request lifecycle lines.
  if (record.req !== undefined || record.res !== undefined) return undefined;
  const exception = text(record.err?.stack) ?? text(record.err?.message);
  const message = text(record.msg) ?? text(record.err?.message) ?? '';
  const ip = text(record.ip);
  return {
    at: typeof record.time === 'number' ? new Date(record.time) : new Date(),
    level: levelName(record.level),
    logger: text(record.logger) ?? 'Server',
    userName: text(record.userName) ?? (ip ? 'Anonymous' : null),
    ip,
    message: message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message,
    status: text(record.status),
    exception,
  };
}

interface Destination {
  write(line: string): unknown;
}

/**
 * pino's destination: the console gets lines at `consoleLevel` and above, the sink Information and
 * above whatever the console shows (LOG_LEVEL only quietens the terminal, never the admin page).
 * `pretty` turns each console line into a readable one (for a terminal); otherwise it stays JSON.
 */
export function createLogStream(
  sink: LogSink,
  consoleLevel: Env['logLevel'],
  out: Destination = process.stdout,
  { pretty = false }: { pretty?: boolean } = {},
) {
  const threshold = PINO_LEVELS[consoleLevel];
  return {
    write(line: string): void {
      let record: PinoRecord;
      try {
        record = JSON.parse(line) as PinoRecord;
      } catch {
        out.write(line);
        return;
      }
      if (typeof record.level === 'number' && record.level >= threshold)
        out.write(pretty ? `${formatLogLine(record as Record<string, unknown>)}\n` : line);
      const row = toLogRow(record);
      if (row) sink.add(row);
    },
  };
}

/** The logger level: low enough for both the console and the sink. */
export function loggerLevel(consoleLevel: Env['logLevel']): Env['logLevel'] {
  return PINO_LEVELS[consoleLevel] < INFO ? consoleLevel : 'info';
}

declare module 'fastify' {
  interface FastifyInstance {
    logSink: LogSink;
  }
}

export default fp(
  async function logs(app: FastifyInstance, options: { sink: LogSink }) {
    const { sink } = options;
    app.decorate('logSink', sink);
    // After auth's onRequest, which has identified the session by then.
    app.addHook('onRequest', async (request) => {
      const operation = request.routeOptions.config.operation;
      // Who the request was from when it arrived, even if it signs in or out meanwhile.
      const userName = request.user?.userName ?? 'Anonymous';
      request.log = lazyChild(request.log, () => ({
        ip: request.ip,
        userName,
        ...(operation ? { logger: operation.tag } : {}),
      }));
    });
    // preClose runs before the caller's own onClose hooks, which may close the database.
    app.addHook('preClose', async () => sink.flush());
    app.addHook('onClose', async () => sink.close());
  },
  { name: 'logs', dependencies: ['auth'] },
);
