/**
 * Playing a game, measured over real sockets with the load generator of `load.ts` running in its own
 * process, beside a bare Fastify hello-world measured the same way in the same run, on PostgreSQL
 * (when DATABASE_URL is set) and on PGlite in memory:
 *
 * - acknowledged flag submissions per second (p50/p99), the time until every one is judged, and how
 *   many acknowledged ones were lost (never judged);
 * - distinct teams solving per second: many teams each submit the right flag once, timed from the
 *   first request until every solve is committed;
 * - cached scoreboard requests per second;
 * - scoreboard generation for 1,000 teams × 60 challenges × 30,000 solves (the pure build, and the
 *   full regeneration with its queries).
 *
 * Each figure is printed with its ratio to the hello-world rate and the target.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app';
import { openDatabase, type DatabaseHandle } from '../../server/src/db/client';
import { challenges, games, participations, teamMembers, teams, users } from '../../server/src/db/schema';
import { loadEnv } from '../../server/src/env';
import { generateGameKeys } from '../../server/src/lib/game-keys';
import { hashToken, randomToken } from '../../server/src/lib/tokens';
import { buildScoreboard, computeScoreboard } from '../../server/src/modules/game/scoreboard';
import { line, load } from './harness';
import type { LoadJob, LoadResult } from './load';

const time = async (run: () => Promise<unknown> | unknown) => {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
};
/** Seconds since `startedAt` (Unix ms, as the load generator reports its first request). */
const since = (startedAt: number) => (performance.timeOrigin + performance.now() - startedAt) / 1000;

/** "0.14 × hello-world (target ≥ 0.13: met)" */
const ratio = (rate: number, hello: number, target: number) =>
  `${(rate / hello).toFixed(3)} × hello-world (target ≥ ${target}: ${rate / hello >= target ? 'met' : 'NOT met'})`;

const SUBMISSIONS = 5000;
/**
 * Rounds per rate. A solving round lasts half a second, and on a machine shared with other VMs one
 * round in three or four ran at half speed for reasons outside the server; the median of five
 * rounds is not moved by one or two such rounds.
 */
const ROUNDS = 5;

interface Round {
  hello: LoadResult;
  result: LoadResult;
  note: string;
}
const ratioOf = (round: Round) => round.result.rps / round.hello.rps;
/** The round whose ratio to its hello-world is the median. */
const median = (rounds: Round[]) => [...rounds].sort((a, b) => ratioOf(a) - ratioOf(b))[rounds.length >> 1]!;
const ratios = (rounds: Round[]) => rounds.map((round) => ratioOf(round).toFixed(3)).join(', ');
const SOLVING_TEAMS = 1000;

/** A bare Fastify hello-world under the same load generator: the yardstick every ratio is taken against. */
async function helloWorld(): Promise<LoadResult> {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  const helloOrigin = await hello.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await load({
      origin: helloOrigin,
      targets: [{ method: 'GET', path: '/' }],
      connections: 32,
      durationMs: 2000,
    });
  } finally {
    await hello.close();
  }
}

export async function benchGame(): Promise<string[]> {
  const out: string[] = [];
  const engines: Array<() => Promise<DatabaseHandle>> = [];
  if (process.env.DATABASE_URL) engines.push(() => openDatabase({ databaseUrl: process.env.DATABASE_URL }));
  engines.push(() => openDatabase({}));
  for (const open of engines) out.push(...(await benchEngine(await open())));
  return out;
}

async function benchEngine(database: DatabaseHandle): Promise<string[]> {
  const out: string[] = [`-- engine: ${database.kind}`];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-game-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'none'),
    ...(process.env.REDIS_URL && database.kind === 'postgres' ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  // Rate limits off: the bench measures the server, not GZCTF's per-user submit budget.
  const app = await buildApp({ env, database, logger: false, rateLimit: { disabled: true } });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const db = app.db;
    // Autovacuum may be off on a shared test server (it is on these machines): clear what earlier
    // runs and test suites left dead, and refresh the statistics, so every run starts alike.
    if (database.kind === 'postgres') await db.execute(sql`vacuum analyze`);
    const keys = generateGameKeys(undefined);
    const now = Date.now();
    const [game] = await db
      .insert(games)
      .values({ title: 'bench', ...keys, startAt: new Date(now - 3_600_000), endAt: new Date(now + 3_600_000) })
      .returning();
    const gameId = game!.id;
    const [challenge] = await db.insert(challenges).values({ gameId, title: 'bench', isEnabled: true }).returning();
    await db.execute(sql`insert into flags (challenge_id, flag) values (${challenge!.id}, 'flag{bench}')`);

    // 20 players, each captain of an accepted team with an instance, signed in through the API.
    const targets: LoadJob['targets'] = [];
    const { hashPassword } = await import('../../server/src/lib/password');
    const passwordHash = await hashPassword('Passw0rd');
    for (let index = 0; index < 20; index += 1) {
      const name = `b${randomBytes(5).toString('hex')}`;
      const [user] = await db
        .insert(users)
        .values({ userName: name, email: `${name}@example.com`, passwordHash, emailConfirmed: true })
        .returning();
      const [team] = await db
        .insert(teams)
        .values({ name, inviteToken: randomBytes(16).toString('hex'), captainId: user!.id })
        .returning();
      await db.insert(teamMembers).values({ teamId: team!.id, userId: user!.id });
      const login = await app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { userName: name, password: 'Passw0rd' },
      });
      const cookie = login.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
      await app.inject({
        method: 'POST',
        url: `/api/game/${gameId}`,
        payload: { teamId: team!.id },
        headers: { cookie },
      });
      await db
        .update(participations)
        .set({ status: 'Accepted' })
        .where(sql`${participations.teamId} = ${team!.id}`);
      await db.execute(
        sql`insert into game_instances (participation_id, challenge_id) select id, ${challenge!.id} from participations where team_id = ${team!.id}`,
      );
      targets.push({
        method: 'POST',
        path: `/api/game/${gameId}/challenges/${challenge!.id}`,
        headers: { cookie },
        body: JSON.stringify({ flag: index % 2 ? 'flag{bench}' : 'flag{wrong}' }),
      });
    }
    await app.scoreboards.idle();

    // ROUNDS rounds, each beside its own hello-world run: on a shared machine the yardstick drifts by
    // a quarter within a minute, so each ratio is taken against the baseline measured next to it,
    // and the round with the median ratio is shown (every round's ratio is printed).
    const rounds: Round[] = [];
    let acknowledged = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const hello = await helloWorld();
      const submitted = await load({ origin, targets, connections: 32, requests: SUBMISSIONS });
      await app.flagChecker.idle();
      const judgedAfter = since(submitted.startedAt);
      await app.scoreboards.idle();
      acknowledged += submitted.count - submitted.errors;
      rounds.push({
        hello,
        result: submitted,
        note: `judged after ${judgedAfter.toFixed(2)} s from the first request`,
      });
    }
    const [counts] = (
      await db.execute<{ judged: number }>(
        sql`select count(*)::int as judged from submissions where game_id = ${gameId} and status <> 'FlagSubmitted'`,
      )
    ).rows;
    const submit = median(rounds);
    out.push(line('hello-world GET', submit.hello));
    out.push(line('submit flag (acknowledged)', submit.result));
    out.push(`  ${ratio(submit.result.rps, submit.hello.rps, 0.13)}; rounds: ${ratios(rounds)}`);
    out.push(
      `  all ${SUBMISSIONS} acknowledged ${submit.note}; lost over all rounds: ${acknowledged - Number(counts!.judged)} of ${acknowledged}`,
    );

    // Games of their own, so the cached board measured below stays the 20-team one.
    const solvingRounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const hello = await helloWorld();
      const solving = await distinctTeamsSolving(app, origin);
      // The board's regeneration after the burst is not counted, and must not run beside the next
      // round's hello-world either.
      await app.scoreboards.idle();
      solvingRounds.push({
        hello,
        result: { ...solving.load, rps: solving.rate },
        note: `${solving.solves} teams, all committed after ${solving.seconds.toFixed(2)} s; ack p50 ${solving.load.p50.toFixed(2)} ms p99 ${solving.load.p99.toFixed(2)} ms`,
      });
    }
    const solving = median(solvingRounds);
    out.push(line('hello-world GET', solving.hello));
    out.push(
      `distinct teams solving             ${solving.result.rps.toFixed(0).padStart(7)} solves/s  (${solving.note})`,
    );
    out.push(`  ${ratio(solving.result.rps, solving.hello.rps, 0.07)}; rounds: ${ratios(solvingRounds)}`);

    await app.scoreboards.idle();
    await app.inject({ method: 'GET', url: `/api/game/${gameId}/scoreboard` });
    const boardHello = await helloWorld();
    const board = await load({
      origin,
      targets: [{ method: 'GET', path: `/api/game/${gameId}/scoreboard` }],
      connections: 32,
      durationMs: 3000,
    });
    out.push(line('hello-world GET', boardHello));
    out.push(line('scoreboard GET (cached)', board));
    out.push(`  ${ratio(board.rps, boardHello.rps, 0.5)}`);

    out.push(...(await scoreboardGeneration(app.db)));
    if (database.kind === 'postgres') await removeBenchData(app.db);
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

/**
 * A shared PostgreSQL keeps what the bench wrote, and every run would read bigger tables than the
 * last: remove the bench's games (with everything hanging off them), their teams and captains.
 */
async function removeBenchData(db: Awaited<ReturnType<typeof buildApp>>['db']): Promise<void> {
  const bench = sql`(select id from games where title in ('bench', 'bench-solve', 'bench-big'))`;
  const owners = (
    await db.execute<{ team_id: number; captain_id: string }>(sql`
      select distinct t.id as team_id, t.captain_id from participations p join teams t on t.id = p.team_id
      where p.game_id in ${bench}`)
  ).rows;
  await db.execute(sql`delete from games where id in ${bench}`);
  const list = JSON.stringify(owners);
  await db.execute(
    sql`delete from teams where id in (select team_id from json_to_recordset(${list}::json) as r(team_id int))`,
  );
  await db.execute(sql`delete from users where id in (select captain_id from json_to_recordset(${list}::json) as r(captain_id uuid))
    and not exists (select 1 from teams where captain_id = users.id)`);
}

/**
 * SOLVING_TEAMS accepted teams (seeded in bulk, each with a session made directly) each submit the
 * right flag of a fresh challenge once; the rate is solves committed per second from the first request.
 */
async function distinctTeamsSolving(app: Awaited<ReturnType<typeof buildApp>>, origin: string) {
  const db = app.db;
  const now = Date.now();
  const [game] = await db
    .insert(games)
    .values({
      title: 'bench-solve',
      ...generateGameKeys(undefined),
      startAt: new Date(now - 3_600_000),
      endAt: new Date(now + 3_600_000),
    })
    .returning();
  const gameId = game!.id;
  const [challenge] = await db.insert(challenges).values({ gameId, title: 'bench-solve', isEnabled: true }).returning();
  await db.execute(sql`insert into flags (challenge_id, flag) values (${challenge!.id}, 'flag{solve}')`);
  const tag = randomBytes(3).toString('hex');
  const tokens = Array.from({ length: SOLVING_TEAMS }, () => randomToken());
  const seed = JSON.stringify(tokens.map((token, n) => ({ n, session: hashToken(token) })));
  await db.execute(sql`insert into users (user_name, email, password_hash, email_confirmed)
    select 's' || ${tag} || n, 's' || ${tag} || n || '@example.com', 'x', true
    from json_to_recordset(${seed}::json) as r(n int, session text)`);
  // Sessions as a fresh sign-in makes them (7 days), so no request has to slide its expiry.
  await db.execute(sql`insert into sessions (id, user_id, expires_at)
    select r.session, u.id, now() + interval '7 days'
    from json_to_recordset(${seed}::json) as r(n int, session text) join users u on u.user_name = 's' || ${tag} || r.n`);
  await db.execute(sql`insert into teams (name, invite_token, captain_id)
    select u.user_name, md5(u.user_name), u.id from users u where u.user_name like 's' || ${tag} || '%'`);
  await db.execute(sql`insert into team_members (team_id, user_id)
    select t.id, t.captain_id from teams t where t.name like 's' || ${tag} || '%'`);
  await db.execute(sql`insert into participations (game_id, team_id, status, token)
    select ${gameId}, t.id, 'Accepted', t.id || ':x' from teams t where t.name like 's' || ${tag} || '%'`);
  await db.execute(sql`insert into user_participations (user_id, game_id, participation_id)
    select t.captain_id, ${gameId}, p.id from participations p join teams t on t.id = p.team_id
    where p.game_id = ${gameId} and t.name like 's' || ${tag} || '%'`);
  await db.execute(sql`insert into game_instances (participation_id, challenge_id)
    select p.id, ${challenge!.id} from participations p where p.game_id = ${gameId}`);
  // As autovacuum would after a bulk load (it is off on these machines): without fresh statistics
  // the planner takes the just-filled tables for empty.
  await db.execute(
    sql`analyze users, sessions, teams, team_members, participations, user_participations, game_instances`,
  );
  const result = await load({
    origin,
    targets: tokens.map((token) => ({
      method: 'POST' as const,
      path: `/api/game/${gameId}/challenges/${challenge!.id}`,
      headers: { cookie: `GZCTF_Token=${token}` },
      body: JSON.stringify({ flag: 'flag{solve}' }),
    })),
    connections: 32,
    requests: SOLVING_TEAMS,
  });
  await app.flagChecker.idle();
  const seconds = since(result.startedAt);
  const [row] = (
    await db.execute<{ solves: number }>(
      sql`select count(*)::int as solves from solves where challenge_id = ${challenge!.id}`,
    )
  ).rows;
  const solves = Number(row!.solves);
  if (result.errors > 0) throw new Error(`${result.errors} solving submissions failed`);
  return { solves, seconds, rate: solves / seconds, load: result };
}

/** 1,000 teams × 60 challenges × 30,000 solves: the pure build from rows, then the full regeneration from the database. */
async function scoreboardGeneration(db: Parameters<typeof computeScoreboard>[0]): Promise<string[]> {
  const TEAMS = 1000;
  const CHALLENGES = 60;
  const SOLVES = 30_000;
  const start = Date.now() - 3_600_000;
  const challengeRows = Array.from({ length: CHALLENGES }, (_, index) => ({
    id: index + 1,
    gameId: 1,
    title: `c${index}`,
    content: '',
    category: (['Web', 'Pwn', 'Crypto', 'Misc'] as const)[index % 4]!,
    type: 'StaticAttachment' as const,
    hints: [],
    isEnabled: true,
    flagTemplate: null,
    acceptedCount: 0,
    submissionCount: 0,
    fileName: 'attachment',
    attachmentId: null,
    testContainerId: null,
    containerImage: null,
    memoryLimit: 64,
    cpuCount: 1,
    storageLimit: 256,
    containerExposePort: 80,
    enableTrafficCapture: false,
    disableBloodBonus: false,
    originalScore: 1000,
    minScoreRate: 0.25,
    difficulty: 5,
  }));
  const teamRows = Array.from({ length: TEAMS }, (_, index) => ({
    participationId: index + 1,
    division: index % 2 ? 'A' : 'B',
    teamId: index + 1,
    name: `t${index}`,
    bio: null,
    avatarHash: null,
  }));
  // Each solve is a distinct (team, challenge) pair: pair k = team k mod 1000, challenge k div 1000 ... spread.
  const solveRows = Array.from({ length: SOLVES }, (_, k) => ({
    participationId: (k % TEAMS) + 1,
    challengeId: Math.floor(k / TEAMS) * 2 + 1 + ((k % TEAMS) % 2),
    submissionId: k + 1,
    solvedAt: start + k * 100,
    userName: 'u',
  }));
  const out: string[] = [];
  const pure = await time(() => buildScoreboard({ bloodBonus: 0 }, challengeRows, teamRows, solveRows, new Date()));
  out.push(
    `scoreboard build, ${TEAMS} teams × ${CHALLENGES} challenges × ${SOLVES} solves (rows in memory): ${pure.toFixed(0)} ms`,
  );

  // The same shape in the database, then a full regeneration (queries included).
  const keys = generateGameKeys(undefined);
  const now = Date.now();
  const [game] = await db
    .insert(games)
    .values({
      title: 'bench-big',
      ...keys,
      startAt: new Date(now - 7_200_000),
      endAt: new Date(now + 3_600_000),
      divisions: ['A', 'B'],
    })
    .returning();
  const gameId = game!.id;
  const seed = await time(async () => {
    const tag = `g${randomBytes(3).toString('hex')}_`;
    await db.execute(sql`insert into users (user_name, email, password_hash)
      select ${tag} || g, ${tag} || g || '@example.com', 'x' from generate_series(1, ${TEAMS}) g`);
    await db.execute(sql`insert into teams (name, invite_token, captain_id)
      select u.user_name, md5(u.user_name), u.id from users u where u.user_name like ${tag} || '%'`);
    await db.execute(sql`insert into participations (game_id, team_id, status, token, division)
      select ${gameId}, t.id, 'Accepted', t.id || ':x', case when t.id % 2 = 0 then 'A' else 'B' end
      from teams t where t.name like ${tag} || '%'`);
    await db.execute(sql`insert into challenges (game_id, title, is_enabled, category)
      select ${gameId}, 'bc' || g, true, (array['Web','Pwn','Crypto','Misc'])[1 + g % 4]::challenge_category from generate_series(1, ${CHALLENGES}) g`);
    await db.execute(sql`insert into game_instances (participation_id, challenge_id)
      select p.id, c.id from participations p cross join challenges c where p.game_id = ${gameId} and c.game_id = ${gameId}`);
    // Without fresh statistics the planner takes these just-filled tables for empty and joins them
    // in a nested loop (minutes instead of a second).
    await db.execute(sql`analyze participations, challenges, game_instances`);
    await db.execute(sql`
      with pairs as (
        select i.participation_id, i.challenge_id, p.team_id, row_number() over (order by random()) as n
        from game_instances i join participations p on p.id = i.participation_id where p.game_id = ${gameId}
      ), picked as (select * from pairs where n <= ${SOLVES}),
      inserted as (
        insert into submissions (answer, status, submitted_at, team_id, participation_id, game_id, challenge_id)
        select 'flag', 'Accepted', now() - interval '1 hour' + n * interval '100 ms', team_id, participation_id, ${gameId}, challenge_id
        from picked returning id, participation_id, challenge_id, submitted_at
      )
      insert into solves (participation_id, challenge_id, submission_id, solved_at)
      select participation_id, challenge_id, id, submitted_at from inserted`);
  });
  // Fresh statistics, as autovacuum would gather after a bulk load: without them the planner still
  // thinks these tables are tiny. Then the median of 5 regenerations.
  await db.execute(sql`analyze solves, submissions, challenges, participations, teams, users`);
  const runs: number[] = [];
  for (let run = 0; run < 5; run += 1) runs.push(await time(() => computeScoreboard(db, game!)));
  runs.sort((a, b) => a - b);
  out.push(
    `  seeded in ${(seed / 1000).toFixed(1)} s; full regeneration from the database: median ${runs[2]!.toFixed(0)} ms ` +
      `(min ${runs[0]!.toFixed(0)}, max ${runs[4]!.toFixed(0)}; target ≤ 150 ms: ${runs[2]! <= 150 ? 'met' : 'NOT met'})`,
  );
  return out;
}
