import { queryNamed, type Db } from '../../db/client';
import { batcherOf } from '../../lib/batcher';
import { insertIntakeEventsFrom } from '../notices';

/** One flag submission as the route hands it over: who, where, what, and whether the answer is well-formed. */
export interface SubmissionRequest {
  gameId: number;
  challengeId: number;
  userId: string;
  answer: string;
  /** False for an empty, too long or NUL-containing answer: checked, never stored. */
  valid: boolean;
}

/** A wrong answer to a static challenge, judged by the intake itself: what the monitors are told. */
export interface IntakeVerdict {
  /** When it was stored and judged (Unix ms): the submission's and its event's time. */
  at: number;
  userName: string;
  teamName: string;
  challengeTitle: string;
}

/** What the context checks need (GZCTF's GetContextInfo, reference §2.5), and the new id when stored. */
export interface SubmissionContext {
  gameFound: boolean;
  /** null: the user has no participation in the game. */
  participationStatus: string | null;
  started: boolean;
  /** Before the end, or practice mode. */
  open: boolean;
  challengeFound: boolean;
  /** Set when every check passed: the submission is committed, as FlagSubmitted unless judged below. */
  submissionId: number | null;
  /** Set when the intake judged it (stored as WrongAnswer): the judge never sees it. */
  judged: IntakeVerdict | null;
}

interface ContextRow {
  n: number;
  game_found: boolean;
  status: string | null;
  started: boolean | null;
  open: boolean | null;
  challenge_found: boolean;
  submission_id: number | null;
  wrong: boolean;
  at: number;
  user_name: string | null;
  team_name: string | null;
  title: string | null;
}

/**
 * The text of `storeSubmissions`' statement: $1 the requests as JSON, $2 the time they are judged
 * against.
 *
 * A wrong answer to a static challenge is judged here rather than by the judge: its verdict is
 * `decide`'s (judge/decide.ts) without reading anything the judge locks (no solve, no blood, no
 * cheating: only dynamic flags can be another team's), so it is stored as WrongAnswer with its
 * `FlagSubmit` event in this statement. Most submissions are wrong, and each the judge takes costs
 * a locked read and an update more (issue 15: in the submission profile, judging them here took a
 * sixth of PostgreSQL's CPU and a fifth of the server's off each wrong flag).
 * A team without the challenge's instance is left to the judge (`NotFound`, no event).
 *
 * Each request's rows are looked up by key, one index probe each: the game, the participation and
 * the challenge through LATERAL subqueries with LIMIT (never flattened into a join), the instance,
 * the flag and the names through scalar subqueries with LIMIT (never hashed). The planner takes
 * json_to_recordset for 100 rows whatever the batch, and so had chosen hash joins over every user's
 * participation and every team, and a hash of every flag: a scan of each per statement, which grew
 * with the event (at 4,000 teams 0.5 ms of each statement, most of a batch of 16 first solves, and
 * the same for a lone submission). `tests/server/game/submission-plans.test.ts` holds it to that.
 */
export const STORE_SUBMISSIONS = `
  with req as (
    select * from json_to_recordset($1::json)
      as r(n int, game_id int, challenge_id int, user_id uuid, answer text, valid boolean)
  ), ctx as materialized (
    select r.n, r.answer, r.user_id, g.id as game_id, p.id as participation_id, p.team_id, c.id as challenge_id,
      c.type as challenge_type, c.title,
      g.id is not null as game_found, p.status::text as status,
      g.start_at <= $2::timestamptz as started,
      (g.end_at >= $2::timestamptz or g.practice_mode) as open,
      c.id is not null as challenge_found,
      case when r.valid and p.status = 'Accepted' and g.start_at <= $2::timestamptz
          and (g.end_at >= $2::timestamptz or g.practice_mode) and c.id is not null
        then nextval(pg_get_serial_sequence('submissions', 'id'))::int end as submission_id
    from req r
    left join lateral (
      select g.id, g.start_at, g.end_at, g.practice_mode from games g where g.id = r.game_id limit 1
    ) g on true
    left join lateral (
      select p.id, p.team_id, p.status from user_participations up
      join participations p on p.id = up.participation_id
      where up.user_id = r.user_id and up.game_id = g.id
      limit 1
    ) p on true
    left join lateral (
      select c.id, c.type, c.title from challenges c
      where c.id = r.challenge_id and c.game_id = g.id and c.is_enabled
      limit 1
    ) c on true
  ), judged as materialized (
    select ctx.*, coalesce(submission_id is not null
      and challenge_type in ('StaticAttachment', 'StaticContainer')
      and (select true from game_instances i
        where i.participation_id = ctx.participation_id and i.challenge_id = ctx.challenge_id limit 1)
      and (select true from flags f where f.challenge_id = ctx.challenge_id and f.flag = ctx.answer limit 1) is null,
      false) as wrong
    from ctx
  ), stored as (
    insert into submissions (id, answer, user_id, team_id, participation_id, game_id, challenge_id, status)
    overriding system value
    select submission_id, answer, user_id, team_id, participation_id, game_id, challenge_id,
      (case when wrong then 'WrongAnswer' else 'FlagSubmitted' end)::answer_result
    from judged where submission_id is not null order by n
  ), intake_events as (
    -- The values in flagSubmitValues' order (judge/decide.ts).
    select n, game_id, array['WrongAnswer', answer, title, challenge_id::text] as values, user_id, team_id
    from judged where wrong
  ), events as (
    ${insertIntakeEventsFrom('intake_events')}
  )
  select j.n, j.game_found, j.status, j.started, j.open, j.challenge_found, j.submission_id, j.wrong,
    floor(extract(epoch from now()) * 1000)::float8 as at,
    case when j.wrong then (select u.user_name from users u where u.id = j.user_id) end as user_name,
    case when j.wrong then (select t.name from teams t where t.id = j.team_id) end as team_name, j.title
  from judged j
  order by j.n`;

/**
 * Reads the context of many submissions and inserts those that pass, in one statement: one round
 * trip and one commit for a whole burst of submissions; the wrong answers to static challenges are
 * judged on the way (above). The statement commits before it returns, so an id handed back is
 * already durable (committed before acknowledged). Ids come from the identity's sequence inside the
 * statement so each caller learns its own.
 */
export async function storeSubmissions(db: Db, requests: SubmissionRequest[]): Promise<SubmissionContext[]> {
  const input = JSON.stringify(
    requests.map((request, n) => ({
      n,
      game_id: request.gameId,
      challenge_id: request.challengeId,
      user_id: request.userId,
      answer: request.answer,
      valid: request.valid,
    })),
  );
  const rows = await queryNamed<ContextRow>(db, 'store_submissions', STORE_SUBMISSIONS, [
    input,
    new Date().toISOString(),
  ]);
  return rows.map((row) => ({
    gameFound: row.game_found,
    participationStatus: row.status,
    started: row.started === true,
    open: row.open === true,
    challengeFound: row.challenge_found,
    submissionId: row.submission_id,
    judged: row.wrong
      ? {
          at: Number(row.at),
          userName: row.user_name ?? '',
          teamName: row.team_name ?? '',
          challengeTitle: row.title ?? '',
        }
      : null,
  }));
}

/**
 * The batched `storeSubmissions` of a database: concurrent submissions share statements. Up to 256
 * per statement, three statements at once on PostgreSQL (one connection each) and one on PGlite.
 */
export function submissionIntake(db: Db, kind: 'pglite' | 'postgres') {
  return batcherOf(db, 'submission intake', (requests: SubmissionRequest[]) => storeSubmissions(db, requests), {
    maxBatch: 256,
    maxInFlight: kind === 'pglite' ? 1 : 3,
  });
}
