import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';

/**
 * Real Docker for the container tests: the local engine (DOCKER_HOST is not followed; tests talk to
 * the socket .ci/run starts) and a test image made here, with no registry: an empty root holding
 * Debian's static busybox (a shell and nc for probes from inside a container) and the test challenge
 * (`challenge-server.c`, compiled statically), imported with `docker import`. The challenge serves,
 * on every connection:
 * - 7000: the container's $GZCTF_FLAG, then closes;
 * - 7001: an echo of what it receives;
 * - 7002: 64 MiB of zeros, then closes (throughput);
 * - 7003: nothing, and never reads (back-pressure).
 */
export const DOCKER_SOCKET = '/var/run/docker.sock';
const BUSYBOX = ['/usr/bin/busybox', '/bin/busybox'].find((file) => fs.existsSync(file));
const APPLETS = ['sh', 'nc', 'cat', 'echo', 'sleep', 'dd', 'head', 'wget', 'ls', 'ip', 'ifconfig'];

const CHALLENGE_SOURCE = path.join(__dirname, 'challenge-server.c');

export const TEST_PORTS = { flag: 7000, echo: 7001, source: 7002, sink: 7003 } as const;

/** Why the Docker tests cannot run here, or undefined when they can. */
export async function dockerUnavailable(): Promise<string | undefined> {
  if (!BUSYBOX) return 'busybox-static is not installed (apt-get install busybox-static)';
  if (!fs.existsSync('/usr/bin/gcc')) return 'gcc is not installed (apt-get install gcc libc6-dev)';
  try {
    await new Docker({ socketPath: DOCKER_SOCKET, timeout: 3000 }).ping();
    return undefined;
  } catch (error) {
    return `no Docker engine answers at ${DOCKER_SOCKET} (${(error as Error).message}); .ci/run starts one`;
  }
}

export function docker(): Docker {
  return new Docker({ socketPath: DOCKER_SOCKET });
}

/** What the test image runs. */
export const TEST_IMAGE_CMD = ['/bin/challenge'];

/** The test image's files: busybox with its applets, a sticky /tmp, and the compiled challenge. */
function fillTestRoot(root: string, busybox = fs.readFileSync(BUSYBOX!)): void {
  fs.mkdirSync(path.join(root, 'bin'));
  fs.mkdirSync(path.join(root, 'tmp'), { mode: 0o1777 });
  fs.writeFileSync(path.join(root, 'bin/busybox'), busybox, { mode: 0o755 });
  for (const applet of APPLETS) fs.symlinkSync('busybox', path.join(root, 'bin', applet));
  execFileSync('gcc', ['-static', '-O2', '-o', path.join(root, 'bin/challenge'), CHALLENGE_SOURCE]);
}

/** The test image's files as one uncompressed tar: a layer for the test registry to serve. */
export function testImageLayer(): Buffer {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-layer-'));
  try {
    fillTestRoot(root);
    return execFileSync('tar', ['-C', root, '-c', '.'], { maxBuffer: 64 * 1024 * 1024 });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Imports the test image once per content and returns its name. */
export async function ensureTestImage(): Promise<string> {
  const busybox = fs.readFileSync(BUSYBOX!);
  const source = fs.readFileSync(CHALLENGE_SOURCE);
  const digest = createHash('sha256').update(busybox).update(source).digest('hex').slice(0, 12);
  const name = `gzctf-test/busybox:${digest}`;
  const engine = docker();
  if (
    await engine
      .getImage(name)
      .inspect()
      .then(
        () => true,
        () => false,
      )
  )
    return name;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-image-'));
  try {
    fillTestRoot(root, busybox);
    const tar = spawn('tar', ['-C', root, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const stream = await engine.importImage(tar.stdout, {
      repo: 'gzctf-test/busybox',
      tag: digest,
      changes: [`CMD ${JSON.stringify(TEST_IMAGE_CMD)}`],
    } as unknown as Record<string, unknown>);
    await new Promise<void>((resolve, reject) =>
      engine.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return name;
}

/** Removes every container (and, with the network name, the network) a test platform left behind. */
export async function removeTestContainers(platformId: string): Promise<number> {
  const engine = docker();
  const leftovers = await engine.listContainers({ all: true, filters: { label: [`gzctf/platform=${platformId}`] } });
  for (const container of leftovers)
    await engine
      .getContainer(container.Id)
      .remove({ force: true })
      .catch(() => {});
  return leftovers.length;
}

/** Runs a shell command inside a container and returns what it printed. */
export async function execIn(containerId: string, command: string, timeoutMs = 15_000): Promise<string> {
  const exec = await docker()
    .getContainer(containerId)
    .exec({ Cmd: ['/bin/sh', '-c', command], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  return new Promise<string>((resolve, reject) => {
    const out: Buffer[] = [];
    const timer = setTimeout(() => {
      stream.destroy();
      reject(new Error(`exec timed out: ${command}`));
    }, timeoutMs);
    // The multiplexed stream: 8-byte headers (stream type, length) before each chunk.
    let pending = Buffer.alloc(0);
    stream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 8) {
        const length = pending.readUInt32BE(4);
        if (pending.length < 8 + length) break;
        out.push(pending.subarray(8, 8 + length));
        pending = pending.subarray(8 + length);
      }
    });
    stream.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(out).toString('utf8'));
    });
    stream.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
