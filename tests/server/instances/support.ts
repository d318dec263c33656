import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import net from 'node:net';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { challenges, containers, gameInstances } from '../../../server/src/db/schema';
import type { ContainerBackend, ContainerSpec } from '../../../server/src/modules/instances/backend';
import { installationId } from '../../../server/src/modules/instances/instances.repository';
import { TEST_PORTS } from '../../helpers/docker';
import { assertOk, newChallenge, type Client } from '../game/support';

export { TEST_PORTS };

/** What the service hands a backend for one container (backend tests); the overrides win. */
export function containerSpec(overrides: Partial<ContainerSpec> = {}): ContainerSpec {
  return {
    rowId: randomUUID(),
    image: 'registry.example.org/ctf/echo:1',
    port: 7001,
    memoryMb: 64,
    cpuCount: 2,
    storageMb: 256,
    pidsLimit: 512,
    env: { GZCTF_FLAG: 'flag{k8s}', GZCTF_TEAM_ID: '42' },
    owner: { team: '42', user: randomUUID(), challenge: '7' },
    publish: false,
    ...overrides,
  };
}

/** Settings of a platform whose containers run on the local test engine. */
export function containerEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    CONTAINER_PROVIDER: 'Docker',
    DOCKER_HOST: 'unix:///var/run/docker.sock',
    // Its own network, so the tests never touch a real deployment's.
    CONTAINER_NETWORK: 'gzctf-test',
    CONTAINER_PUBLIC_ENTRY: '127.0.0.1',
    ...overrides,
  };
}

/** An enabled container challenge running the test image, exposing one of its ports. */
export async function containerChallenge(
  admin: Client,
  gameId: number,
  image: string,
  options: { type?: 'StaticContainer' | 'DynamicContainer'; port?: number; flags?: string[]; capture?: boolean } = {},
) {
  const type = options.type ?? 'DynamicContainer';
  const challenge = await newChallenge(admin, gameId, {
    type,
    ...(type === 'StaticContainer' ? { flags: options.flags ?? ['flag{static}'] } : {}),
  });
  const response = await admin('PUT', `/api/edit/games/${gameId}/challenges/${challenge.id}`, {
    containerImage: image,
    containerExposePort: options.port ?? TEST_PORTS.flag,
    memoryLimit: 64,
    cpuCount: 5,
    ...(options.capture ? { enableTrafficCapture: true } : {}),
  });
  assertOk('editUpdateGameChallenge', response);
  return challenge;
}

export interface ContainerInfo {
  status: string;
  startedAt: number;
  expectStopAt: number;
  entry: string;
}

/** Sends `send` (if any) and reads what a TCP service answers until it closes. */
export function readTcp(host: string, port: number, send?: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${host}:${port}`));
    }, timeoutMs);
    socket.on('connect', () => {
      if (send !== undefined) socket.write(send);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * What a container's TCP service answers once it listens. Right after the start the engine's port
 * forward already accepts and closes at once (an empty answer) until the challenge listens.
 */
export async function readAnswer(host: string, port: number, timeoutMs = 10_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const answer = await readTcp(host, port).catch(() => '');
    if (answer !== '' || Date.now() > end) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The containers row behind an entry, with its engine id. */
export async function containerRow(app: FastifyInstance, id: string) {
  const [row] = await app.db.select().from(containers).where(eq(containers.id, id));
  return row;
}

/** A game's player containers, oldest first. */
export async function containersOfGame(app: FastifyInstance, gameId: number) {
  const rows = await app.db
    .select({ container: containers })
    .from(containers)
    .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
    .innerJoin(challenges, eq(challenges.id, gameInstances.challengeId))
    .where(eq(challenges.gameId, gameId))
    .orderBy(asc(containers.startedAt));
  return rows.map((row) => row.container);
}

/** Moves a container's expected stop (tests of renewal and expiry). */
export async function setExpectStop(app: FastifyInstance, id: string, at: Date) {
  await app.db.update(containers).set({ expectStopAt: at }).where(eq(containers.id, id));
}

/** Forgets the last container operation of every instance (the 10 s throttle). */
export async function clearThrottle(app: FastifyInstance) {
  await app.db.update(gameInstances).set({ lastContainerOperation: null });
}

export async function platformId(app: FastifyInstance): Promise<string> {
  return installationId(app.db);
}

/** Polls until `check` holds or the time is up (the sweeper runs on its own timer). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the condition did not hold in time');
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * An engine in memory. `hold(call)` makes the next create or destroy wait: `reached` resolves once
 * the call is in the engine, `release()` lets it finish.
 */
export function memoryEngine() {
  const running = new Map<string, string>();
  const created: string[] = [];
  const held: Partial<Record<'create' | 'destroy', { reached: () => void; released: Promise<void> }>> = {};
  let next = 0;
  const wait = async (call: 'create' | 'destroy') => {
    const hold = held[call];
    if (!hold) return;
    delete held[call];
    hold.reached();
    await hold.released;
  };
  const backend: ContainerBackend = {
    kind: 'Docker',
    init: async () => {},
    async create(spec: ContainerSpec) {
      created.push(spec.rowId);
      await wait('create');
      next += 1;
      const containerId = `memory-${next}`;
      running.set(containerId, spec.rowId);
      return { containerId, ip: '10.0.0.2', port: spec.port, publicIp: null, publicPort: null };
    },
    async destroy(containerId: string) {
      await wait('destroy');
      running.delete(containerId);
    },
    list: async () => [...running].map(([containerId, rowId]) => ({ containerId, rowId, running: true })),
    close: async () => {},
  };
  return {
    backend,
    running,
    /** Row ids the engine was asked to start, in order. */
    created,
    hold(call: 'create' | 'destroy') {
      const reached = deferred();
      const released = deferred();
      held[call] = { reached: reached.resolve, released: released.promise };
      return { reached: reached.promise, release: released.resolve };
    },
  };
}
