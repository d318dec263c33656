/**
 * Profiling aid (not part of `npm run bench`): the submit load of the game bench alone (20 teams,
 * sessions made directly), so the server can be profiled with
 * `node --cpu-prof --import tsx tests/bench/profile-submit.ts` (DATABASE_URL/REDIS_URL as for the bench).
 * With SOLVE=1 it is the solving load instead: TEAMS teams (default 1,000) each submit the right flag once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app';
import { openDatabase } from '../../server/src/db/client';
import { challenges, games } from '../../server/src/db/schema';
import { loadEnv } from '../../server/src/env';
import { generateGameKeys } from '../../server/src/lib/game-keys';
import { hashToken, randomToken } from '../../server/src/lib/tokens';
import { line, load } from './harness';

/** CPU ms used so far by this process and by every PostgreSQL and Redis process (the load generator excluded). */
function busyMs(): { server: number; system: number; services: number } {
  let services = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!/^(postgres|redis-server)/.test(name)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      services += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // the process ended meanwhile
    }
  }
  const own = process.cpuUsage();
  return { server: (own.user + own.system) / 1000, system: own.system / 1000, services };
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
  const db = app.db;
  const now = Date.now();
  const [game] = await db
    .insert(games)
    .values({
      title: 'prof',
      ...generateGameKeys(undefined),
      startAt: new Date(now - 3_600_000),
      endAt: new Date(now + 3_600_000),
    })
    .returning();
  const gameId = game!.id;
  const [challenge] = await db.insert(challenges).values({ gameId, title: 'prof', isEnabled: true }).returning();
  await db.execute(sql`insert into flags (challenge_id, flag) values (${challenge!.id}, 'flag{bench}')`);
  const tag = randomBytes(3).toString('hex');
  const solve = process.env.SOLVE === '1';
  const teamCount = Number(process.env.TEAMS ?? (solve ? 1000 : 20));
  const tokens = Array.from({ length: teamCount }, () => randomToken());
  const seed = JSON.stringify(tokens.map((token, n) => ({ n, session: hashToken(token) })));
  await db.execute(sql`insert into users (user_name, email, password_hash, email_confirmed)
    select 'p' || ${tag} || n, 'p' || ${tag} || n || '@example.com', 'x', true from json_to_recordset(${seed}::json) as r(n int, session text)`);
  await db.execute(sql`insert into sessions (id, user_id, expires_at)
    select r.session, u.id, now() + interval '7 days' from json_to_recordset(${seed}::json) as r(n int, session text) join users u on u.user_name = 'p' || ${tag} || r.n`);
  await db.execute(
    sql`insert into teams (name, invite_token, captain_id) select u.user_name, md5(u.user_name), u.id from users u where u.user_name like 'p' || ${tag} || '%'`,
  );
  await db.execute(
    sql`insert into participations (game_id, team_id, status, token) select ${gameId}, t.id, 'Accepted', t.id || ':x' from teams t where t.name like 'p' || ${tag} || '%'`,
  );
  await db.execute(
    sql`insert into user_participations (user_id, game_id, participation_id) select t.captain_id, ${gameId}, p.id from participations p join teams t on t.id = p.team_id where p.game_id = ${gameId}`,
  );
  await db.execute(
    sql`insert into game_instances (participation_id, challenge_id) select p.id, ${challenge!.id} from participations p where p.game_id = ${gameId}`,
  );
  await db.execute(sql`analyze users, sessions, teams, participations, user_participations, game_instances`);
  const windowStart = process.hrtime.bigint() / 1000n;
  const busyBefore = busyMs();
  const result = await load({
    origin,
    targets: tokens.map((token, index) => ({
      method: 'POST' as const,
      path: `/api/game/${gameId}/challenges/${challenge!.id}`,
      headers: { cookie: `GZCTF_Token=${token}` },
      body: JSON.stringify({ flag: solve || index % 2 ? 'flag{bench}' : 'flag{wrong}' }),
    })),
    connections: 32,
    requests: solve ? teamCount : Number(process.env.REQUESTS ?? 5000),
  });
  await app.flagChecker.idle();
  const judged = (performance.timeOrigin + performance.now() - result.startedAt) / 1000;
  // The window to read a --cpu-prof profile over (µs on the profile's monotonic clock).
  process.stdout.write(`window ${windowStart} ${process.hrtime.bigint() / 1000n}\n`);
  const busyAfter = busyMs();
  const perRequest = (ms: number) => `${((ms * 1000) / result.count).toFixed(0)} µs`;
  process.stdout.write(
    `CPU per request: server ${perRequest(busyAfter.server - busyBefore.server)} (system ${perRequest(busyAfter.system - busyBefore.system)}), PostgreSQL + Redis ${perRequest(busyAfter.services - busyBefore.services)}\n`,
  );
  process.stdout.write(`acknowledged after ${result.seconds.toFixed(3)} s, all judged after ${judged.toFixed(3)} s\n`);
  // Leave a shared database as found.
  await db.execute(sql`delete from games where id = ${gameId}`);
  await db.execute(sql`delete from teams where name like 'p' || ${tag} || '%'`);
  await db.execute(sql`delete from users where user_name like 'p' || ${tag} || '%'`);
  process.stdout.write(`${line('submit flag (acknowledged)', result)}\n`);
}

void main();
