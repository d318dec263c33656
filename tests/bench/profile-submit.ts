/**
 * Profiling aid (not part of `npm run bench`): the wrong-flag load of the game bench alone (an event
 * of TEAMS teams × 60 challenges, default 4,000, seeded as the bench does), so the server can be profiled with
 * `node --cpu-prof --import tsx tests/bench/profile-submit.ts` (DATABASE_URL/REDIS_URL as for the bench).
 * With REVALIDATE=1 it is the scoreboard's revalidation (304) load. With WARM=1 every team submits
 * once, unmeasured, before the measured load, so the sessions are cached as in the game bench's later
 * rounds. With SOLVE=1 it is the first-solve load instead: every team submits the right flag of an unsolved challenge once.
 * With PGSS=1, on a PostgreSQL started with `shared_preload_libraries=pg_stat_statements` (and the
 * extension created in the database), it prints the statements of the measured load by total time,
 * with the WAL each wrote: timings there include waiting for a core, WAL bytes do not vary.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app';
import { openDatabase } from '../../server/src/db/client';
import { loadEnv } from '../../server/src/env';
import { removeBenchData, seedEvent } from './event-seed';
import { line, load } from './harness';
import type { LoadTarget } from './load';

/**
 * CPU ms (user + system) in a /proc stat line, in clock ticks of 10 ms; with `children`, also that of
 * its ended children, so a PostgreSQL backend or worker that exits during the load still counts
 * (the postmaster collects it).
 */
function statMs(stat: string, children = false): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / 100;
}

/**
 * CPU ms used so far by this process (its main thread apart from its other threads: V8's helpers,
 * which compile and collect garbage, and libuv's pool), by every PostgreSQL process and by Redis
 * (the load generator excluded).
 */
function busyMs(): { server: number; main: number; system: number; postgres: number; redis: number } {
  const services = { postgres: 0, redis: 0 };
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const service = name.startsWith('postgres') ? 'postgres' : name.startsWith('redis-server') ? 'redis' : undefined;
      if (service) services[service] += statMs(stat, true);
    } catch {
      // the process ended meanwhile
    }
  }
  const own = process.cpuUsage();
  const main = statMs(fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'));
  return { server: (own.user + own.system) / 1000, main, system: own.system / 1000, ...services };
}

/** The machine's idle and total CPU ticks so far (all cores), from the first line of /proc/stat. */
function machineTicks(): { idle: number; total: number } {
  const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // idle + iowait
  return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((sum, value) => sum + value, 0) };
}

/**
 * Samples `machineTicks` every 50 ms so the idle share can be read over the load alone: the load
 * generator starts as a process of its own, and its start-up would otherwise count.
 */
function machineSampler() {
  const samples: Array<{ at: number; idle: number; total: number }> = [];
  const take = () => samples.push({ at: Date.now(), ...machineTicks() });
  take();
  const timer = setInterval(take, 50);
  return {
    /** Percent of the machine idle between `from` and now (Unix ms). */
    idleSince(from: number): number {
      clearInterval(timer);
      take();
      const start = samples.findLast((sample) => sample.at <= from) ?? samples[0]!;
      const end = samples.at(-1)!;
      return (100 * (end.idle - start.idle)) / Math.max(1, end.total - start.total);
    },
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-prof-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'none'),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {});
  const app = await buildApp({ env, database, logger: false, rateLimit: { disabled: true } });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  // ROUNDS > 1: the first rounds warm the server's JIT up, as the game bench's earlier phases do.
  for (let round = Number(process.env.ROUNDS ?? 1); round > 0; round -= 1) await once(app, origin);
  await app.close();
  await database.close();
}

async function once(app: Awaited<ReturnType<typeof buildApp>>, origin: string) {
  const solve = process.env.SOLVE === '1';
  const event = await seedEvent(app, Number(process.env.TEAMS ?? 4000), 'bench-event');
  const gameId = event.gameId;
  await app.scoreboards.idle();
  // WARM=1: every team submits a wrong flag once first, unmeasured, so the measured load finds the
  // sessions cached, as the game bench's later rounds do.
  const wrongFlag = (cookie: string, index: number, flag: string): LoadTarget => ({
    method: 'POST',
    path: `/api/game/${gameId}/challenges/${event.challengeIds[index % event.challengeIds.length]!}`,
    headers: { cookie },
    body: JSON.stringify({ flag }),
  });
  if (process.env.WARM === '1') {
    await load({
      origin,
      targets: event.cookies.map((cookie, index) => wrongFlag(cookie, index, `flag{warm-${index}}`)),
      connections: 50,
      requests: event.cookies.length,
    });
    await app.flagChecker.idle();
  }
  if (process.env.PGSS) await app.db.execute(sql`select pg_stat_statements_reset()`);
  const windowStart = process.hrtime.bigint() / 1000n;
  const busyBefore = busyMs();
  const machine = machineSampler();
  // REVALIDATE=1: the board's GET with a matching If-None-Match instead (answered 304).
  const boardPath = `/api/game/${gameId}/scoreboard`;
  const etag = String(
    (await app.inject({ method: 'GET', url: boardPath, headers: { cookie: event.cookies[0]! } })).headers.etag,
  );
  const revalidate = process.env.REVALIDATE === '1';
  const result = await load({
    origin,
    okStatus: revalidate ? [304] : undefined,
    targets: event.cookies.map((cookie, index): LoadTarget => {
      if (revalidate) return { method: 'GET' as const, path: boardPath, headers: { cookie, 'if-none-match': etag } };
      if (!solve) return wrongFlag(cookie, index, `flag{wrong-${index}}`);
      const challengeId = event.unsolved[0]!;
      return {
        method: 'POST' as const,
        path: `/api/game/${gameId}/challenges/${challengeId}`,
        headers: { cookie },
        body: JSON.stringify({ flag: `flag{${challengeId}}` }),
      };
    }),
    connections: 50,
    requests: solve ? event.cookies.length : Number(process.env.REQUESTS ?? 5000),
  });
  await app.flagChecker.idle();
  const judged = (performance.timeOrigin + performance.now() - result.startedAt) / 1000;
  // The window to read a --cpu-prof profile over (µs on the profile's monotonic clock).
  process.stdout.write(`window ${windowStart} ${process.hrtime.bigint() / 1000n}\n`);
  const busyAfter = busyMs();
  const idle = machine.idleSince(result.startedAt);
  const perRequest = (key: keyof typeof busyAfter) =>
    `${(((busyAfter[key] - busyBefore[key]) * 1000) / result.count).toFixed(0)} µs`;
  const serverOthers = (busyAfter.server - busyAfter.main - (busyBefore.server - busyBefore.main)) * 1000;
  process.stdout.write(
    `CPU per request: server ${perRequest('server')} (main thread ${perRequest('main')}, ` +
      `other threads ${(serverOthers / result.count).toFixed(0)} µs; system ${perRequest('system')}), ` +
      `PostgreSQL ${perRequest('postgres')}, Redis ${perRequest('redis')}\n` +
      `machine idle ${idle.toFixed(0)} % from the first request until all were judged\n`,
  );
  process.stdout.write(`acknowledged after ${result.seconds.toFixed(3)} s, all judged after ${judged.toFixed(3)} s\n`);
  await app.scoreboards.idle();
  if (process.env.PGSS) process.stdout.write(await statementTable(app));
  // Leave a shared database as found.
  await removeBenchData(app.db);
  process.stdout.write(`${line('submit flag (acknowledged)', result)}\n`);
}

/** The measured window's busiest statements (pg_stat_statements was reset at its start). */
async function statementTable(app: Awaited<ReturnType<typeof buildApp>>): Promise<string> {
  const { rows } = await app.db.execute<{ calls: number; rows: number; ms: number; wal: number; text: string }>(sql`
    select calls, rows, round(total_exec_time::numeric, 1)::float8 as ms, wal_bytes::float8 as wal,
      left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 100) as text
    from pg_stat_statements order by total_exec_time desc limit 15`);
  return rows.map((row) => `${row.calls}\t${row.rows} rows\t${row.ms} ms\t${row.wal} B WAL\t${row.text}\n`).join('');
}

void main();
