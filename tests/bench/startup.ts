/**
 * Cold start: time from spawning the server on an empty data dir (PGlite, migrations included) to the
 * first 200 of GET /api/config, and the resident memory once it answers. Then the same on the
 * now-initialised data dir (a restart).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, ROOT } from '../server/helpers/server-process';

function residentMemoryMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

async function startOnce(dataDir: string): Promise<{ ms: number; rssMiB: number }> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    // The bench measures the embedded default, whatever the caller's environment says.
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/config`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        return { ms, rssMiB: residentMemoryMiB(child.pid!) };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the server did not answer within 120 s');
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function benchStartup(): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-bench-'));
  try {
    const cold = await startOnce(dataDir);
    const warm = await startOnce(dataDir);
    return [
      `cold start to first 200 of /api/config (PGlite, empty data dir): ${cold.ms.toFixed(0)} ms, RSS ${cold.rssMiB.toFixed(0)} MiB`,
      `restart to first 200 of /api/config (PGlite, existing data dir): ${warm.ms.toFixed(0)} ms, RSS ${warm.rssMiB.toFixed(0)} MiB`,
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
