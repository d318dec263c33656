import { and, eq, inArray, or } from 'drizzle-orm';
import { queryNamed, type Db } from '../../../db/client';
import type { ChallengeType } from '../../../db/schema/enums';
import { lockChallengeCounts } from '../../challenges';
import { flagRows } from '../../challenges/read-models';
import { instanceRows } from '../../instances/read-models';
import { participationRows } from '../../participations/read-models';
import { teamRows } from '../../teams/read-models';
import { solvedKey, type ChallengeState, type ForeignFlag, type SubmissionFacts } from './decide';

// What the cheat check reads of other modules' tables, through their read models
// (lib/read-model.ts); the two hot reads below are fixed statements instead.
const participation = participationRows();
const team = teamRows();
const instance = instanceRows();
const ownerFlag = flagRows('owner_flag');

/** A locked submission with what judging needs of it: the facts `decide` reads, and the names the hubs show. */
export interface LockedSubmission {
  facts: SubmissionFacts;
  gameId: number;
  userId: string | null;
  teamId: number;
  userName: string;
  /** The static flag equal to the answer, if any (the only static flag that can match). */
  staticFlag: string | null;
  /** The flag assigned to the team's instance: the container's or, for an attachment, its flag's. */
  ownFlag: string | null;
}

interface LockedRow {
  id: number;
  answer: string;
  submitted_at: number;
  user_id: string | null;
  team_id: number;
  game_id: number;
  game_end_at: number;
  game_freeze_at: number | null;
  challenge_id: number;
  challenge_title: string;
  challenge_type: ChallengeType;
  challenge_enabled: boolean;
  blood_bonus_disabled: boolean;
  participation_id: number;
  participation_status: string;
  team_name: string;
  instance_id: number | null;
  instance_flag: string | null;
  user_name: string | null;
  static_flag: string | null;
  attachment_flag: string | null;
}

/**
 * `lockSubmissions`' statement: $1 the submission ids. A fixed text with one array parameter, run
 * as a named statement (`queryNamed`): each connection parses it once and reuses its one generic
 * plan (judge.ts forces it: planning a join this wide per batch cost more than running it), and the
 * server neither builds it nor maps its rows through drizzle per batch (in a 1,000-solve burst that
 * had been about a tenth of the server's main thread). Like the intake's statement it names the
 * other modules' tables it reads (games, challenges, flags, participations, teams, game instances,
 * users); times come as Unix ms. NO KEY UPDATE: the judge never changes a key, so inserts
 * referencing these rows need not wait. The teams' participations are held in SHARE mode: a review
 * changing a team's status (NO KEY UPDATE, then the accepted counts recounted) either waits for this
 * judgement, and recounts its solves, or goes first, and this read sees the new status. Unlocked, a
 * team suspended meanwhile had its solve counted after the recount. The intake's foreign-key checks
 * (KEY SHARE) do not wait for it.
 */
const LOCK_SUBMISSIONS = `
  select s.id, s.answer, floor(extract(epoch from s.submitted_at) * 1000)::float8 as submitted_at,
    s.user_id, s.team_id, s.game_id, floor(extract(epoch from g.end_at) * 1000)::float8 as game_end_at,
    floor(extract(epoch from g.freeze_at) * 1000)::float8 as game_freeze_at,
    c.id as challenge_id, c.title as challenge_title, c.type::text as challenge_type,
    c.is_enabled as challenge_enabled, c.disable_blood_bonus as blood_bonus_disabled,
    p.id as participation_id, p.status::text as participation_status, t.name as team_name,
    i.id as instance_id, i.flag as instance_flag, u.user_name,
    (select f.flag from flags f where f.challenge_id = s.challenge_id and f.flag = s.answer limit 1) as static_flag,
    (select f.flag from flags f where f.id = i.flag_id) as attachment_flag
  from submissions s
  join games g on g.id = s.game_id
  join challenges c on c.id = s.challenge_id
  join participations p on p.id = s.participation_id
  join teams t on t.id = p.team_id
  left join game_instances i on i.participation_id = s.participation_id and i.challenge_id = s.challenge_id
  left join users u on u.id = s.user_id
  where s.id = any($1::int[]) and s.status = 'FlagSubmitted'
  order by s.id
  for no key update of s for share of p`;

/**
 * The submissions still FlagSubmitted among `ids`, locked, with everything judging reads (one round
 * trip): the static flag equal to the answer, and the flags assigned to the team's instance.
 */
export async function lockSubmissions(tx: Db, ids: number[]): Promise<LockedSubmission[]> {
  const rows = await queryNamed<LockedRow>(tx, 'judge_lock_submissions', LOCK_SUBMISSIONS, [ids]);
  return rows.map((row) => ({
    facts: {
      id: row.id,
      answer: row.answer,
      submittedAt: Number(row.submitted_at),
      participation: {
        id: row.participation_id,
        accepted: row.participation_status === 'Accepted',
        teamName: row.team_name,
      },
      challenge: {
        id: row.challenge_id,
        title: row.challenge_title,
        type: row.challenge_type,
        enabled: row.challenge_enabled,
        bloodBonus: !row.blood_bonus_disabled,
      },
      hasInstance: row.instance_id !== null,
      gameEndAt: Number(row.game_end_at),
      freezeAt: row.game_freeze_at === null ? null : Number(row.game_freeze_at),
    },
    gameId: row.game_id,
    userId: row.user_id,
    teamId: row.team_id,
    userName: row.user_name ?? '',
    staticFlag: row.static_flag,
    ownFlag: row.challenge_type === 'DynamicAttachment' ? row.attachment_flag : row.instance_flag,
  }));
}

/**
 * Locks the challenges in id order (no deadlock between batches) and reads their counted solves
 * under the lock.
 */
export async function lockChallenges(tx: Db, challengeIds: number[]): Promise<Map<number, ChallengeState>> {
  const state = new Map<number, ChallengeState>();
  if (challengeIds.length === 0) return state;
  const locked = await lockChallengeCounts(tx, challengeIds);
  for (const row of locked) state.set(row.id, { accepted: row.acceptedCount, latest: Number.NEGATIVE_INFINITY });
  return state;
}

/**
 * `readSolves`' statement: $1 the challenge ids, $2 the participation ids (a fixed text, as above).
 * A separate statement on purpose: in READ COMMITTED a statement that waited for the challenges'
 * lock keeps its old snapshot for subqueries, so it would miss a solve committed by the batch before.
 * Each challenge's latest solve is the last entry of its (challenge, time) index: a `max()` grouped
 * by challenge had read every solve of the challenge, per batch (2.6 ms a batch once a 4,000-team
 * burst's challenge had its solves, a tenth of PostgreSQL's time in the burst).
 */
export const READ_SOLVES = `
  select c.id as challenge_id, null::int as participation_id,
    (select floor(extract(epoch from s.solved_at) * 1000)::float8 from solves s
      where s.challenge_id = c.id order by s.solved_at desc limit 1) as latest
  from unnest($1::int[]) as c(id)
  union all
  select challenge_id, participation_id, null from solves
  where challenge_id = any($1::int[]) and participation_id = any($2::int[])`;

/**
 * Fills in the latest solve of `challengeIds` (locked: `lockChallenges`) and returns which of them
 * `participationIds` have solved already.
 */
export async function readSolves(
  tx: Db,
  state: Map<number, ChallengeState>,
  challengeIds: number[],
  participationIds: number[],
): Promise<Set<string>> {
  const solved = new Set<string>();
  if (challengeIds.length === 0) return solved;
  const rows = await queryNamed<{ challenge_id: number; participation_id: number | null; latest: number | null }>(
    tx,
    'judge_read_solves',
    READ_SOLVES,
    [challengeIds, participationIds],
  );
  for (const row of rows) {
    if (row.participation_id !== null) solved.add(solvedKey(Number(row.participation_id), Number(row.challenge_id)));
    else if (row.latest !== null) state.get(Number(row.challenge_id))!.latest = Number(row.latest);
  }
  return solved;
}

/** The dynamic flags, by challenge, of any instance whose flag is one of `answers` (cheat detection). */
export async function foreignFlags(
  tx: Db,
  challengeIds: number[],
  answers: string[],
): Promise<Map<number, ForeignFlag[]>> {
  const byChallenge = new Map<number, ForeignFlag[]>();
  if (answers.length === 0) return byChallenge;
  const owners = await tx
    .select({
      challengeId: instance.challengeId,
      participationId: instance.participationId,
      teamName: team.name,
      flag: instance.flag,
      attachmentFlag: ownerFlag.flag,
    })
    .from(instance)
    .innerJoin(participation, eq(participation.id, instance.participationId))
    .innerJoin(team, eq(team.id, participation.teamId))
    .leftJoin(ownerFlag, eq(ownerFlag.id, instance.flagId))
    .where(
      and(
        inArray(instance.challengeId, challengeIds),
        or(inArray(instance.flag, answers), inArray(ownerFlag.flag, answers)),
      ),
    );
  for (const owner of owners) {
    const list = byChallenge.get(owner.challengeId) ?? [];
    for (const flag of [owner.flag, owner.attachmentFlag]) {
      if (flag !== null) list.push({ participationId: owner.participationId, teamName: owner.teamName, flag });
    }
    byChallenge.set(owner.challengeId, list);
  }
  return byChallenge;
}
