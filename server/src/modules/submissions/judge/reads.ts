import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { solves, submissions } from '../../../db/schema/submissions';
import { userRows } from '../../accounts/read-models';
import { lockChallengeCounts } from '../../challenges';
import { challengeRows, flagRows } from '../../challenges/read-models';
import { gameRows } from '../../games/read-models';
import { instanceRows } from '../../instances/read-models';
import { participationRows } from '../../participations/read-models';
import { teamRows } from '../../teams/read-models';
import { solvedKey, type ChallengeState, type ForeignFlag, type SubmissionFacts } from './decide';

// What judging reads of other modules' tables, through their read models (lib/read-model.ts).
const game = gameRows();
const challenge = challengeRows();
const participation = participationRows();
const team = teamRows();
const instance = instanceRows();
const user = userRows();
const staticFlag = flagRows('static_flag');
const attachmentFlag = flagRows('attachment_flag');
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

/**
 * The submissions still FlagSubmitted among `ids`, locked, with everything judging reads (one round
 * trip): the static flag equal to the answer, and the flags assigned to the team's instance.
 */
export async function lockSubmissions(tx: Db, ids: number[]): Promise<LockedSubmission[]> {
  const rows = await tx
    .select({
      id: submissions.id,
      answer: submissions.answer,
      submittedAt: submissions.submittedAt,
      userId: submissions.userId,
      teamId: submissions.teamId,
      gameId: submissions.gameId,
      gameEndAt: game.endAt,
      challenge: {
        id: challenge.id,
        title: challenge.title,
        type: challenge.type,
        isEnabled: challenge.isEnabled,
        disableBloodBonus: challenge.disableBloodBonus,
      },
      participation: { id: participation.id, status: participation.status, teamName: team.name },
      instance: { id: instance.id, flag: instance.flag },
      userName: user.userName,
      staticFlag: sql<
        string | null
      >`(select ${staticFlag.flag} from ${staticFlag} where ${staticFlag.challengeId} = ${submissions.challengeId} and ${staticFlag.flag} = ${submissions.answer} limit 1)`,
      attachmentFlag: sql<
        string | null
      >`(select ${attachmentFlag.flag} from ${attachmentFlag} where ${attachmentFlag.id} = ${instance.flagId})`,
    })
    .from(submissions)
    .innerJoin(game, eq(game.id, submissions.gameId))
    .innerJoin(challenge, eq(challenge.id, submissions.challengeId))
    .innerJoin(participation, eq(participation.id, submissions.participationId))
    .innerJoin(team, eq(team.id, participation.teamId))
    .leftJoin(
      instance,
      and(eq(instance.participationId, submissions.participationId), eq(instance.challengeId, submissions.challengeId)),
    )
    .leftJoin(user, eq(user.id, submissions.userId))
    // One array parameter and a named statement: the text never changes, so each connection parses
    // it once and reuses its generic plan (judge.ts forces it: planning a join this wide per batch
    // cost more than running it).
    .where(and(sql`${submissions.id} = any(${sql.placeholder('ids')}::int[])`, eq(submissions.status, 'FlagSubmitted')))
    .orderBy(submissions.id)
    // NO KEY UPDATE: the judge never changes a key, so inserts referencing these rows need not wait.
    .for('no key update', { of: submissions })
    .prepare('judge_lock_submissions')
    .execute({ ids });
  return rows.map((row) => ({
    facts: {
      id: row.id,
      answer: row.answer,
      submittedAt: row.submittedAt.getTime(),
      participation: {
        id: row.participation.id,
        accepted: row.participation.status === 'Accepted',
        teamName: row.participation.teamName,
      },
      challenge: {
        id: row.challenge.id,
        title: row.challenge.title,
        type: row.challenge.type,
        enabled: row.challenge.isEnabled,
        bloodBonus: !row.challenge.disableBloodBonus,
      },
      hasInstance: row.instance !== null,
      gameEndAt: row.gameEndAt.getTime(),
    },
    gameId: row.gameId,
    userId: row.userId,
    teamId: row.teamId,
    userName: row.userName ?? '',
    staticFlag: row.staticFlag,
    ownFlag: row.challenge.type === 'DynamicAttachment' ? row.attachmentFlag : (row.instance?.flag ?? null),
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
  // A separate statement on purpose: in READ COMMITTED a statement that waited for the lock keeps
  // its old snapshot for subqueries, so it would miss a solve committed by the batch before us.
  const rows = await tx.execute<{ challenge_id: number; participation_id: number | null; latest: number | null }>(sql`
    select challenge_id, null::int as participation_id, floor(extract(epoch from max(solved_at)) * 1000)::float8 as latest
    from ${solves} where ${inArray(solves.challengeId, challengeIds)} group by challenge_id
    union all
    select challenge_id, participation_id, null from ${solves}
    where ${inArray(solves.challengeId, challengeIds)} and ${inArray(solves.participationId, participationIds)}`);
  for (const row of rows.rows) {
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
