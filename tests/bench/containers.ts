/**
 * Challenge containers on the local Docker Engine (the test image of tests/helpers/docker.ts), on
 * PostgreSQL when DATABASE_URL is set, else PGlite:
 *
 * - create-to-running (the player's POST until it answers with a running container): alone, one
 *   team after another; and 50 teams pressing "start" at once, through the start gate;
 * - proxy throughput for one and for 32 connections, beside direct TCP to the same container, read
 *   by a client in its own process (tests/bench/stream-client.ts). Target: proxy ≥ 0.5 × direct.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { openDatabase } from '../../server/src/db/client';
import { loadEnv } from '../../server/src/env';
import { installationId } from '../../server/src/modules/instances/instances.repository';
import { dockerUnavailable, ensureTestImage, removeTestContainers, TEST_PORTS } from '../helpers/docker';
import { acceptedPlayer, client, newGame, type Player } from '../server/game/support';
import { asUser } from '../server/helpers/users';
import { containerChallenge, containerRow } from '../server/instances/support';

const ROOT = path.resolve(__dirname, '../..');
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

interface Stream {
  bytes: number;
  seconds: number;
  mibPerSecond: number;
}

function stream(job: {
  mode: 'tcp' | 'ws' | 'ws-library';
  target: string;
  connections: number;
  bytes: number;
}): Promise<Stream> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'stream-client.ts'), JSON.stringify(job)],
      { cwd: ROOT, maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Stream)),
    ),
  );
}

export async function benchContainers(): Promise<string[]> {
  const unavailable = await dockerUnavailable();
  if (unavailable) return [`skipped: ${unavailable}`];
  const image = await ensureTestImage();
  const database = process.env.DATABASE_URL
    ? await openDatabase({ databaseUrl: process.env.DATABASE_URL })
    : await openDatabase({});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-containers-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'none'),
    PORT_MAPPING: 'PlatformProxy',
    CONTAINER_PROVIDER: 'Docker',
    CONTAINER_NETWORK: 'gzctf-bench',
    ...(process.env.REDIS_URL && database.kind === 'postgres' ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  const app = await buildApp({ env, database, logger: false, rateLimit: { disabled: true } });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const out = [`-- engine: ${database.kind}, start concurrency ${env.containers.startConcurrency}`];
  try {
    const admin = client(app, (await asUser(app, 'Admin')).cookie);
    const game = await newGame(admin, { containerCountLimit: 0 });
    const source = await containerChallenge(admin, game.id, image, { port: TEST_PORTS.source });
    const start = async (player: Player) => {
      const started = performance.now();
      const response = await player.api('POST', `/api/game/${game.id}/container/${source.id}`);
      if (response.statusCode !== 200) throw new Error(`start failed: ${response.body}`);
      return { ms: performance.now() - started, entry: response.json<{ entry: string }>().entry };
    };
    const destroyAll = async () => {
      const { data } = (await app.instances.list({})) as { data: Array<{ containerGuid: string }> };
      await Promise.all(data.map((entry) => app.instances.destroyById(entry.containerGuid)));
    };

    const alone: number[] = [];
    for (let n = 0; n < 20; n++) alone.push((await start(await acceptedPlayer(app, game.id))).ms);
    out.push(
      `create-to-running, one at a time (20)    p50 ${percentile(alone, 50).toFixed(0)} ms  p99 ${percentile(alone, 99).toFixed(0)} ms`,
    );
    await destroyAll();

    const teams = await Promise.all(Array.from({ length: 50 }, () => acceptedPlayer(app, game.id)));
    const burstStarted = performance.now();
    const burst = await Promise.all(teams.map(start));
    const wall = performance.now() - burstStarted;
    const times = burst.map((entry) => entry.ms);
    out.push(
      `create-to-running, 50 teams at once      p50 ${percentile(times, 50).toFixed(0)} ms  p99 ${percentile(times, 99).toFixed(0)} ms  (all running after ${(wall / 1000).toFixed(1)} s, 0 failed)`,
    );

    const { entry } = burst[0]!;
    const row = (await containerRow(app, entry))!;
    const direct = `${row.ip}:${row.port}`;
    const proxied = `${origin.replace('http:', 'ws:')}/api/proxy/${entry}`;
    await destroyAllBut(app, entry);
    // Three rounds each (this machine's rates move by a third from run to run); the median ratio counts.
    for (const [connections, bytes] of [
      [1, 64 * 1048576],
      [32, 16 * 1048576],
    ] as const) {
      const rounds: Array<{ tcp: Stream; ws: Stream; library: Stream }> = [];
      for (let round = 0; round < 3; round++) {
        rounds.push({
          tcp: await stream({ mode: 'tcp', target: direct, connections, bytes }),
          ws: await stream({ mode: 'ws', target: proxied, connections, bytes }),
          library: await stream({ mode: 'ws-library', target: proxied, connections, bytes }),
        });
      }
      const ratioOf = (entry: (typeof rounds)[number]) => entry.ws.mibPerSecond / entry.tcp.mibPerSecond;
      const median = [...rounds].sort((a, b) => ratioOf(a) - ratioOf(b))[1]!;
      const ratio = ratioOf(median);
      out.push(
        `proxy throughput, ${String(connections).padStart(2)} connection(s)        ${median.ws.mibPerSecond.toFixed(0)} MiB/s vs direct ${median.tcp.mibPerSecond.toFixed(0)} MiB/s = ${ratio.toFixed(2)} (target ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'}; rounds ${rounds.map((entry) => ratioOf(entry).toFixed(2)).join(', ')})`,
        `  read through the ws package instead: ${median.library.mibPerSecond.toFixed(0)} MiB/s (its JavaScript framing is the client's cost, not the proxy's)`,
      );
    }
    await destroyAll();
  } finally {
    const platform = await installationId(app.db);
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await removeTestContainers(platform);
  }
  return out;
}

async function destroyAllBut(app: FastifyInstance, keep: string) {
  const { data } = (await app.instances.list({})) as { data: Array<{ containerGuid: string }> };
  await Promise.all(
    data.filter((entry) => entry.containerGuid !== keep).map((entry) => app.instances.destroyById(entry.containerGuid)),
  );
}
