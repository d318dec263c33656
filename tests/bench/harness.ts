import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadJob, LoadResult } from './load';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the load generator (load.ts) in its own process, so it never shares the server's event loop. */
export function load(job: LoadJob): Promise<LoadResult> {
  // The job goes through a file: a thousand targets with their cookies exceed the argument limit.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-')), 'job.json');
  fs.writeFileSync(file, JSON.stringify(job));
  return new Promise<LoadResult>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'load.ts'), file],
      { cwd: ROOT, maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult)),
    );
  }).finally(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
}

/** One printed line per measurement: rate, latency percentiles, counts. */
export const line = (label: string, result: LoadResult) =>
  `${label.padEnd(34)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  (${result.count} requests, ${result.errors} errors)`;
