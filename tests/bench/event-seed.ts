/**
 * The event the game bench plays: a running game of many teams seeded in bulk SQL, and its removal
 * afterwards so the next run starts from the same tables.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { buildApp } from '../../server/src/app';
import { games } from '../../server/src/db/schema';
import { generateGameKeys } from '../../server/src/lib/game-keys';
import { hashToken, randomToken } from '../../server/src/lib/tokens';

type App = Awaited<ReturnType<typeof buildApp>>;

export const CHALLENGES = 60;
/**
 * Rounds per figure; the last ROUNDS challenges stay unsolved in the seed, one per first-solve
 * round. Five, not three: on these shared machines the yardstick moves by a quarter within a minute
 * and one round of a figure by as much, so the median of three still swung by ±0.02 between runs.
 */
export const ROUNDS = 5;
const BENCH_TITLES = ['bench-event', 'bench-small'];

export interface Event {
  gameId: number;
  /** One signed-in captain per team: the cookie, and the team's unsolved challenges' ids and flags. */
  cookies: string[];
  challengeIds: number[];
  /** Challenges no team has solved yet, one per first-solve round. */
  unsolved: number[];
  solves: number;
}

/**
 * A running game with `teamCount` accepted teams (one captain each, signed in: a session made
 * directly) × 60 enabled static challenges (flag `flag{<id>}`), an instance row per pair, and
 * a long tail of solves (below), spread over the last two hours; the
 * last ROUNDS challenges stay unsolved; the notices such a game has published (openings, bloods,
 * announcements). All in bulk statements.
 */
export async function seedEvent(app: App, teamCount: number, title: string): Promise<Event> {
  const db = app.db;
  const now = Date.now();
  const [game] = await db
    .insert(games)
    .values({
      title,
      ...generateGameKeys(undefined),
      startAt: new Date(now - 3 * 3_600_000),
      endAt: new Date(now + 3_600_000),
    })
    .returning();
  const gameId = game!.id;
  const tag = `e${randomBytes(3).toString('hex')}_`;
  const tokens = Array.from({ length: teamCount }, () => randomToken());
  const seed = JSON.stringify(tokens.map((token, n) => ({ n, session: hashToken(token) })));
  await db.execute(sql`insert into challenges (game_id, title, is_enabled, category)
    select ${gameId}, 'c' || lpad(g::text, 2, '0'), true,
      (array['Misc','Crypto','Pwn','Web','Reverse','Forensics'])[1 + g % 6]::challenge_category
    from generate_series(1, ${CHALLENGES}) g`);
  await db.execute(sql`insert into flags (challenge_id, flag)
    select id, 'flag{' || id || '}' from challenges where game_id = ${gameId}`);
  await db.execute(sql`insert into users (user_name, email, password_hash, email_confirmed)
    select ${tag} || n, ${tag} || n || '@example.com', 'x', true from json_to_recordset(${seed}::json) as r(n int, session text)`);
  // Sessions as a fresh sign-in makes them (7 days), so no request has to slide its expiry.
  await db.execute(sql`insert into sessions (id, user_id, expires_at)
    select r.session, u.id, now() + interval '7 days'
    from json_to_recordset(${seed}::json) as r(n int, session text) join users u on u.user_name = ${tag} || r.n`);
  await db.execute(sql`insert into teams (name, invite_token, captain_id)
    select u.user_name, md5(u.user_name), u.id from users u where u.user_name like ${tag} || '%'`);
  await db.execute(sql`insert into team_members (team_id, user_id)
    select t.id, t.captain_id from teams t where t.name like ${tag} || '%'`);
  await db.execute(sql`insert into participations (game_id, team_id, status, token)
    select ${gameId}, t.id, 'Accepted', t.id || ':x' from teams t where t.name like ${tag} || '%'`);
  await db.execute(sql`insert into user_participations (user_id, game_id, participation_id)
    select t.captain_id, ${gameId}, p.id from participations p join teams t on t.id = p.team_id where p.game_id = ${gameId}`);
  await db.execute(sql`insert into game_instances (participation_id, challenge_id)
    select p.id, c.id from participations p cross join challenges c where p.game_id = ${gameId} and c.game_id = ${gameId}`);
  // As autovacuum would after a bulk load (it is off on these machines): without fresh statistics
  // the planner takes the just-filled tables for empty and joins them in nested loops.
  await db.execute(
    sql`analyze users, sessions, teams, team_members, participations, user_participations, challenges, game_instances`,
  );
  // A long tail, as on the boards of large open events: a team of strength s (uniform in [0, 1))
  // solves challenge k (1..57, easiest first) with probability 0.9 × e^(−k / (1 + 12 s²)), about 4.5
  // solves a team on average and a dozen for the strongest. Decided by hashes, so every run seeds the
  // same shape; solve times follow a hash order over the last two hours.
  await db.execute(sql`
    with ranked as (
      select c.id, row_number() over (order by c.id) as k from challenges c where c.game_id = ${gameId}
    ), picked as (
      select p.id as participation_id, p.team_id, r.id as challenge_id,
        row_number() over (order by hashtext(p.id || '/' || r.id)) as n
      from participations p cross join ranked r
      where p.game_id = ${gameId} and r.k <= ${CHALLENGES - ROUNDS}
        and (hashtext(r.id || ':' || p.id) & 1023) / 1024.0
          < 0.9 * exp(-r.k / (1 + 12 * power((hashtext('s' || p.id) & 1023) / 1024.0, 2)))
    ), total as (select count(*) as n from picked),
    inserted as (
      insert into submissions (answer, status, submitted_at, team_id, participation_id, game_id, challenge_id)
      select 'flag{' || challenge_id || '}', 'Accepted',
        now() - interval '2 hours' + (n::float / (select n from total)) * interval '115 minutes',
        team_id, participation_id, ${gameId}, challenge_id
      from picked returning id, participation_id, challenge_id, submitted_at
    )
    insert into solves (participation_id, challenge_id, submission_id, solved_at)
    select participation_id, challenge_id, id, submitted_at from inserted`);
  await db.execute(sql`update challenges c set accepted_count = s.n
    from (select challenge_id, count(*)::int as n from solves
      where challenge_id in (select id from challenges where game_id = ${gameId}) group by challenge_id) s
    where c.id = s.challenge_id`);
  // The notices such a game has published: each challenge's opening, its three bloods, and a few
  // announcements (every player's page polls the list).
  await db.execute(sql`
    insert into game_notices (game_id, type, values, published_at)
    select c.game_id, 'NewChallenge'::notice_type, array[c.title], now() - interval '3 hours'
    from challenges c where c.game_id = ${gameId}
    union all
    select c.game_id, (array['FirstBlood','SecondBlood','ThirdBlood'])[b.rank]::notice_type, array[t.name, c.title], b.solved_at
    from (select s.*, row_number() over (partition by s.challenge_id order by s.solved_at) as rank from solves s
      join challenges c on c.id = s.challenge_id where c.game_id = ${gameId}) b
    join challenges c on c.id = b.challenge_id join participations p on p.id = b.participation_id
    join teams t on t.id = p.team_id
    where b.rank <= 3
    union all
    select ${gameId}::int, 'Normal'::notice_type, array['Announcement ' || g || ': hints for the harder challenges are out. Read the rules before asking.'],
      now() - interval '3 hours' + g * interval '20 minutes'
    from generate_series(1, 8) g`);
  await db.execute(sql`analyze submissions, solves, challenges, game_notices`);
  const challengeIds = (
    await db.execute<{ id: number }>(sql`select id from challenges where game_id = ${gameId} order by id`)
  ).rows.map((row) => Number(row.id));
  const [count] = (
    await db.execute<{ n: number }>(
      sql`select count(*)::int as n from solves where challenge_id in (select id from challenges where game_id = ${gameId})`,
    )
  ).rows;
  return {
    gameId,
    cookies: tokens.map((token) => `GZCTF_Token=${token}`),
    challengeIds,
    unsolved: challengeIds.slice(CHALLENGES - ROUNDS),
    solves: Number(count!.n),
  };
}

/**
 * A PostgreSQL database keeps what the bench wrote, and every run would read bigger tables than the
 * last: remove the bench's games (with everything hanging off them), their teams and captains.
 */
export async function removeBenchData(db: App['db']): Promise<void> {
  const titles = sql.join(
    BENCH_TITLES.map((title) => sql`${title}`),
    sql`, `,
  );
  const bench = sql`(select id from games where title in (${titles}))`;
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
