import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '../..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** What `npm start` runs, on an empty data dir: it must migrate, serve, and print where. */
test('npm start serves the app and /api/config on a fresh data dir', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-start-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const deadline = Date.now() + 180_000;
    while (!output.includes(`http://localhost:${port}`)) {
      assert.ok(Date.now() < deadline, `no URL printed; output so far:\n${output}`);
      assert.equal(child.exitCode, null, `npm start exited early:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const config = await fetch(`http://127.0.0.1:${port}/api/config`);
    assert.equal(config.status, 200);
    assert.equal(((await config.json()) as { title: string }).title, 'GZ');
    const page = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>GZ::CTF<\/title>/);
    assert.ok(fs.existsSync(path.join(dataDir, 'db')), 'the embedded database lives in the data dir');
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a bad setting stops npm start with a message naming it', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: 'not-a-port' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 1);
  assert.match(output, /Invalid configuration:\n {2}- PORT: /);
});
