import path from 'node:path';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Db } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { submissionBatch } from '../submissions';
import type { SheetLabelTexts, SubmissionSheetRow } from './sheets';

/**
 * Sheet exports off the request thread. Each export runs in its own worker thread
 * (sheet.worker.ts) that builds the workbook with ExcelJS's streaming writer; the bytes come back as
 * messages and leave as the response body while they are produced, so a 50,000-row sheet neither
 * sits in memory whole nor holds the event loop that answers everyone else.
 *
 * Rows of the submission sheet: with PostgreSQL the worker reads them itself over its own
 * connection (`databaseUrl`); with PGlite, whose single connection lives in this thread, this thread
 * answers the worker's requests for the next batch (keyset reads through the repository).
 */

export type SheetJob = { labels: SheetLabelTexts } & (
  | { kind: 'scoreboard'; boardJson: string }
  | { kind: 'submissions'; gameId: number; databaseUrl: string | undefined; batchSize: number }
);

export type ToParent =
  | { type: 'chunk'; bytes: Uint8Array }
  | { type: 'rows'; after: number | null }
  | { type: 'done' }
  | { type: 'error'; message: string };
export type ToWorker = { type: 'ack' } | { type: 'rows'; rows: SubmissionSheetRow[] };

export const SUBMISSION_BATCH = 5_000;
/**
 * Exports running at once in this process: each is a worker thread (and, on PostgreSQL, a connection
 * of its own), so more wait for a few seconds (429) rather than pile up.
 */
export const MAX_EXPORTS = 4;
/** An export whose client has read nothing for this long is ended: a worker is not held for a stalled reader. */
const STALL_MS = 120_000;
let running = 0;

const WORKER_FILE = path.join(__dirname, `sheet.worker${path.extname(__filename)}`);

/**
 * Under tsx (development, tests, `npm start`) a worker does not inherit the TypeScript loader, so the
 * worker registers it first; compiled JavaScript loads directly.
 */
function startWorker(job: SheetJob): Worker {
  if (!WORKER_FILE.endsWith('.ts')) return new Worker(WORKER_FILE, { workerData: job });
  const bootstrap = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(WORKER_FILE)});`;
  return new Worker(bootstrap, { eval: true, workerData: job });
}

/**
 * The workbook as a byte stream. `db` serves the worker's row requests when it cannot connect itself
 * (PGlite). Destroying the stream (the client went away) stops the worker.
 */
export function exportSheet(job: SheetJob, db?: Db): Readable {
  if (running >= MAX_EXPORTS) throw new HttpError(429, 'error.tooManyRequests', { seconds: 5 });
  running += 1;
  const worker = startWorker(job);
  let finished = false;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    running -= 1;
    clearTimeout(stall);
  };
  /** Blocks received but not yet acknowledged, because the response had no room for more. */
  let owed = 0;
  const ack = () => worker.postMessage({ type: 'ack' } satisfies ToWorker);
  let stall: NodeJS.Timeout | undefined;
  const watchStall = () => {
    clearTimeout(stall);
    stall = setTimeout(() => fail(new Error('the sheet export stalled: its client read nothing')), STALL_MS);
    stall.unref();
  };
  const body = new Readable({
    highWaterMark: 1024 * 1024,
    read() {
      watchStall();
      for (; owed > 0; owed -= 1) ack();
    },
    destroy(error, callback) {
      if (!finished) void worker.terminate();
      release();
      callback(error);
    },
  });
  body.once('end', release);
  watchStall();
  const fail = (error: Error) => {
    if (finished) return;
    finished = true;
    void worker.terminate();
    body.destroy(error);
  };
  worker.on('message', (message: ToParent) => {
    switch (message.type) {
      case 'chunk':
        if (body.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength))) ack();
        else owed += 1;
        return;
      case 'rows':
        if (!db || job.kind !== 'submissions') return fail(new Error('the sheet worker asked for rows it cannot get'));
        submissionBatch(db, job.gameId, message.after, job.batchSize).then(
          (rows) => worker.postMessage({ type: 'rows', rows } satisfies ToWorker),
          (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
        );
        return;
      case 'done':
        finished = true;
        body.push(null);
        void worker.terminate();
        return;
      case 'error':
        fail(new Error(`sheet export failed: ${message.message}`));
    }
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!finished) fail(new Error(`sheet worker exited with code ${code}`));
  });
  return body;
}
