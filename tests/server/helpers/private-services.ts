import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, until } from './server-process';

/**
 * A PostgreSQL cluster and a Redis of the test's own, to stop and start again without disturbing
 * the machine's shared ones (other test files use those at the same time). A missing binary fails
 * with a message naming the package: a crash test that cannot run must not look like one that passed.
 */

function postgresBinary(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((version) => fs.existsSync(path.join(root, version, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(`${name} not found under ${root}/*/bin: install Debian's postgresql package for the crash tests`);
  return path.join(root, versions[0]!, 'bin', name);
}

/** Runs a PostgreSQL tool as the `postgres` user when we are root (the server refuses to run as root). */
function asPostgres(binary: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  execFileSync(root ? 'runuser' : binary, root ? ['-u', 'postgres', '--', binary, ...args] : args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

export interface PrivatePostgres {
  /** Connection string of the cluster's `postgres` database (trust authentication). */
  url: string;
  port: number;
  /** Stops the cluster: `fast` rolls back open transactions, `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data directory, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops it (if running) and removes its files. */
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const initdb = postgresBinary('initdb');
  const pgCtl = postgresBinary('pg_ctl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-pg-'));
  const data = path.join(dir, 'data');
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  const port = await freePort();
  asPostgres(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${dir}`, '-c fsync=off'];
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = false;
  const start = async () => {
    asPostgres(pgCtl, ['-D', data, '-l', path.join(dir, 'log'), '-o', options.join(' '), '-w', '-t', '120', 'start']);
    running = true;
    await until(
      'the private PostgreSQL to accept connections',
      async () => {
        const client = new Client({ connectionString: url });
        try {
          await client.connect();
          await client.query('select 1');
          return true;
        } catch {
          return undefined;
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      60_000,
    );
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    asPostgres(pgCtl, ['-D', data, '-m', mode, '-w', '-t', '120', 'stop']);
    running = false;
  };
  await start();
  return {
    url,
    port,
    stop,
    start,
    async destroy() {
      if (running) await stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Ends the server without saving (its keys are gone, as after a Redis restart). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const binary = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((candidate) => fs.existsSync(candidate));
  if (!binary) throw new Error("redis-server not found: install Debian's redis-server package for the crash tests");
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  const start = async () => {
    let output = '';
    const process_ = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    process_.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    process_.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => process_.once('exit', resolve));
    child = process_;
    await until(
      'the private Redis to accept connections',
      async () => {
        if (process_.exitCode !== null) throw new Error(`redis-server exited:\n${output}`);
        return output.includes('Ready to accept connections') ? true : undefined;
      },
      30_000,
    );
  };
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    child = undefined;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}
