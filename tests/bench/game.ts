/**
 * Playing a game, measured over real sockets with the load generator of `load.ts` running in its own
 * process, beside a bare Fastify hello-world measured the same way in the same run:
 *
 * - acknowledged flag submissions per second (p50/p99), and the time until every one is judged;
 * - cached scoreboard requests per second;
 * - scoreboard generation for 1,000 teams × 60 challenges × 30,000 solves (the pure build, and the
 *   full regeneration with its queries).
 *
 * The game server uses PGlite in memory, or PostgreSQL when DATABASE_URL is set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app';
import { openDatabase } from '../../server/src/db/client';
import { challenges, games, participations, teamMembers, teams, users } from '../../server/src/db/schema';
import { loadEnv } from '../../server/src/env';
import { generateGameKeys } from '../../server/src/lib/game-keys';
import { buildScoreboard, computeScoreboard } from '../../server/src/modules/game/scoreboard';
import { line, load } from './harness';
import type { LoadJob } from './load';

const time = async (run: () => Promise<unknown> | unknown) => {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

export async function benchGame(): Promise<string[]> {
  const out: string[] = [];
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  const helloOrigin = await hello.listen({ port: 0, host: '127.0.0.1' });
  out.push(
    line(
      'hello-world GET',
      await load({ origin: helloOrigin, targets: [{ method: 'GET', path: '/' }], connections: 32, durationMs: 3000 }),
    ),
  );
  await hello.close();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-game-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'none'),
  });
  const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {});
  out.push(`engine: ${database.kind}`);
  // Rate limits off: the bench measures the server, not GZCTF's per-user submit budget.
  const app = await buildApp({ env, database, logger: false, rateLimit: { disabled: true } });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const db = app.db;
    const keys = generateGameKeys(undefined);
    const now = Date.now();
    const [game] = await db
      .insert(games)
      .values({ title: 'bench', ...keys, startAt: new Date(now - 3_600_000), endAt: new Date(now + 3_600_000) })
      .returning();
    const [challenge] = await db
      .insert(challenges)
      .values({ gameId: game!.id, title: 'bench', isEnabled: true })
      .returning();
    await db.execute(sql`insert into flags (challenge_id, flag) values (${challenge!.id}, 'flag{bench}')`);

    // 20 players, each captain of an accepted team with an instance, signed in through the API.
    const targets: LoadJob['targets'] = [];
    for (let index = 0; index < 20; index += 1) {
      const { hashPassword } = await import('../../server/src/lib/password');
      const name = `b${randomBytes(5).toString('hex')}`;
      const [user] = await db
        .insert(users)
        .values({
          userName: name,
          email: `${name}@example.com`,
          passwordHash: await hashPassword('Passw0rd'),
          emailConfirmed: true,
        })
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
        url: `/api/game/${game!.id}`,
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
        path: `/api/game/${game!.id}/challenges/${challenge!.id}`,
        headers: { cookie },
        body: JSON.stringify({ flag: index % 2 ? 'flag{bench}' : 'flag{wrong}' }),
      });
    }
    const started = process.hrtime.bigint();
    const submitted = await load({ origin, targets, connections: 32, requests: 5000 });
    out.push(line('submit flag (acknowledged)', submitted));
    await app.flagChecker.idle();
    out.push(
      `all ${submitted.count} judged after ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(2)} s from the first request`,
    );

    await app.scoreboards.idle();
    await app.inject({ method: 'GET', url: `/api/game/${game!.id}/scoreboard` });
    out.push(
      line(
        'scoreboard GET (cached)',
        await load({
          origin,
          targets: [{ method: 'GET', path: `/api/game/${game!.id}/scoreboard` }],
          connections: 32,
          durationMs: 3000,
        }),
      ),
    );

    out.push(...(await scoreboardGeneration(app.db)));
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
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
    solvedAt: new Date(start + k * 100),
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
    await db.execute(sql`insert into users (user_name, email, password_hash)
      select 'bb' || g || ${gameId}, 'bb' || g || ${gameId} || '@example.com', 'x' from generate_series(1, ${TEAMS}) g`);
    await db.execute(sql`insert into teams (name, invite_token, captain_id)
      select 'bt' || g, md5(g::text), (select id from users where user_name = 'bb' || g || ${gameId}) from generate_series(1, ${TEAMS}) g`);
    await db.execute(sql`insert into participations (game_id, team_id, status, token, division)
      select ${gameId}, t.id, 'Accepted', t.id || ':x', case when t.id % 2 = 0 then 'A' else 'B' end
      from teams t where t.name like 'bt%' and not exists (select 1 from participations p where p.team_id = t.id and p.game_id = ${gameId})`);
    await db.execute(sql`insert into challenges (game_id, title, is_enabled, category)
      select ${gameId}, 'bc' || g, true, (array['Web','Pwn','Crypto','Misc'])[1 + g % 4]::challenge_category from generate_series(1, ${CHALLENGES}) g`);
    await db.execute(sql`insert into game_instances (participation_id, challenge_id)
      select p.id, c.id from participations p cross join challenges c where p.game_id = ${gameId} and c.game_id = ${gameId}`);
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
  const regen = await time(() => computeScoreboard(db, game!));
  out.push(`  seeded in ${(seed / 1000).toFixed(1)} s; full regeneration from the database: ${regen.toFixed(0)} ms`);
  return out;
}
