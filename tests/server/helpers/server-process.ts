import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * The real server process (`server/src/main.ts`, what the Docker image runs) for tests that need
 * separate processes: several instances, signals, `kill -9`, restarts. Shared by those tests and the
 * start-up benchmark so each does not grow its own copy.
 */
export const ROOT = path.resolve(__dirname, '../../..');

/** A TCP port nothing listens on right now (the OS picks it). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something other than undefined; fails naming `what` after the deadline. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export interface ServerProcess {
  base: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/**
 * Spawns the server with `env` over the caller's environment (on `port`, or a free one) and waits
 * until it prints where it listens; fails with its output if it exits first or takes over 120 s.
 */
export async function startServerProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(listenPort), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await until(
    `the server on port ${listenPort} to start`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited early:\n${output}`);
      return output.includes(`http://localhost:${listenPort}`) ? true : undefined;
    },
    120_000,
  );
  return { base: `http://127.0.0.1:${listenPort}`, port: listenPort, child, output: () => output, exited };
}

/** Ends the process with `signal` (if it still runs) and waits for it to exit. */
export async function stopServerProcess(server: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!server) return;
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

export interface CallResult {
  /** 0 when the request failed on the network (a stopping or killed server) or timed out. */
  status: number;
  text: string;
  etag: string | null;
  json: <T>() => T;
}

/**
 * JSON over HTTP as the holder of `cookie`. Network errors come back as status 0; a request still
 * unanswered after `timeoutMs` too, with `timedOut` set, so a test can tell a hang from a refusal.
 */
export async function call(
  base: string,
  cookie: string | undefined,
  method: string,
  url: string,
  body?: unknown,
  timeoutMs = 120_000,
): Promise<CallResult & { timedOut?: boolean }> {
  try {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, text, etag: response.headers.get('etag'), json: <T>() => JSON.parse(text) as T };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { status: 0, text: '', etag: null, json: <T>() => undefined as T, timedOut };
  }
}
