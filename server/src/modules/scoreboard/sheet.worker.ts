import fs from 'node:fs';
import os from 'node:os';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { connectPostgres } from '../../db/client';
// The worker thread loads this one query, not the submissions module's index and all it pulls in.
// eslint-disable-next-line import-x/no-restricted-paths
import { submissionBatch } from '../submissions/monitor.repository';
import type { ScoreboardModel } from './scoreboard';
import {
  writeScoreboardRows,
  writeSubmissionHeader,
  writeSubmissionRows,
  type SheetLabelTexts,
  type SubmissionSheetRow,
} from './sheets';
import type { ToParent, ToWorker, SheetJob } from './sheet-export';

/**
 * The sheet export's worker thread (see sheet-export.ts): builds the workbook with ExcelJS's
 * streaming writer and posts the zip's bytes to the request thread as they come. Zipping and XML are
 * the CPU-heavy part, so they run here; the request thread only forwards bytes.
 *
 * Rows: on PostgreSQL the worker reads them itself in keyset batches over its own connection; on
 * PGlite (one connection, owned by the main thread) it asks the main thread for each batch.
 */

const port = parentPort!;

// An export is background work: on Linux this thread lowers its own priority (a thread id is a
// valid target of setpriority), so when the machine is short of CPU the request thread goes first
// and the export takes longer instead. Elsewhere, or when refused, it simply runs at normal priority.
try {
  const threadId = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(threadId) && threadId > 0) os.setPriority(threadId, 10);
} catch {
  // not Linux, or not allowed: normal priority
}
const job = workerData as SheetJob;

// Flow control: bytes go out in blocks of at least BLOCK, at most WINDOW blocks unacknowledged by
// the request thread (which acknowledges once the response has room). Per-chunk round trips made an
// export several times slower; an unbounded queue would hold the whole file in memory.
const BLOCK = 64 * 1024;
const WINDOW = 4;
let inFlight = 0;
let resume: (() => void) | undefined;
let fedRows: ((rows: SubmissionSheetRow[]) => void) | undefined;
port.on('message', (message: ToWorker) => {
  if (message.type === 'ack') {
    inFlight -= 1;
    if (resume && inFlight < WINDOW) {
      const next = resume;
      resume = undefined;
      next();
    }
  } else {
    const take = fedRows;
    fedRows = undefined;
    take?.(message.rows);
  }
});

const post = (message: ToParent, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let pending: Buffer[] = [];
let pendingBytes = 0;
function flush(): void {
  if (pendingBytes === 0) return;
  const bytes = new Uint8Array(pendingBytes);
  let offset = 0;
  for (const part of pending) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  pending = [];
  pendingBytes = 0;
  inFlight += 1;
  post({ type: 'chunk', bytes }, [bytes.buffer]);
}

const output = new Writable({
  highWaterMark: BLOCK,
  write(chunk: Buffer, _encoding, callback) {
    pending.push(chunk);
    pendingBytes += chunk.byteLength;
    if (pendingBytes >= BLOCK) flush();
    if (inFlight < WINDOW) callback();
    else resume = () => callback();
  },
  final(callback) {
    flush();
    callback();
  },
});

async function* submissionBatches(gameId: number, databaseUrl: string | undefined, batchSize: number) {
  if (databaseUrl) {
    const handle = connectPostgres(databaseUrl);
    try {
      let after: number | null = null;
      for (;;) {
        const rows = await submissionBatch(handle.db, gameId, after, batchSize);
        if (rows.length > 0) yield rows;
        if (rows.length < batchSize) return;
        after = rows.at(-1)!.id;
      }
    } finally {
      await handle.close();
    }
  } else {
    let after: number | null = null;
    for (;;) {
      const rows = await new Promise<SubmissionSheetRow[]>((resolve) => {
        fedRows = resolve;
        post({ type: 'rows', after });
      });
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) return;
      after = rows.at(-1)!.id;
    }
  }
}

async function run(): Promise<void> {
  // Shared strings: inline strings would drop empty texts (a team without division), which the
  // in-memory writer kept as ''; a table of 50,000 answers is a few megabytes at most.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: true });
  const labels: SheetLabelTexts = job.labels;
  if (job.kind === 'scoreboard') {
    const sheet = workbook.addWorksheet(labels.scoreboard);
    writeScoreboardRows(sheet, JSON.parse(job.boardJson) as ScoreboardModel, labels);
    sheet.commit();
  } else {
    const sheet = workbook.addWorksheet(labels.submissions);
    writeSubmissionHeader(sheet, labels);
    for await (const rows of submissionBatches(job.gameId, job.databaseUrl, job.batchSize)) {
      writeSubmissionRows(sheet, rows);
    }
    sheet.commit();
  }
  await workbook.commit();
  post({ type: 'done' });
}

run().catch((error: unknown) =>
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
);
