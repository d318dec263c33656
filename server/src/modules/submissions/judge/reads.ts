import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { challenges, flags } from '../../../db/schema/challenges';
import { games } from '../../../db/schema/games';
import { gameInstances } from '../../../db/schema/instances';
import { participations } from '../../../db/schema/participations';
import { solves, submissions } from '../../../db/schema/submissions';
import { teams } from '../../../db/schema/teams';
import { users } from '../../../db/schema/users';
import { solvedKey, type ChallengeState, type ForeignFlag, type SubmissionFacts } from './decide';

/** A locked submission with what judging needs of it: the facts `decide` reads, and the names the hubs show. */
export interface LockedSubmission {
  facts: SubmissionFacts;
  gameId: number;
  userId: string | null;
  teamId: number;
  userName: string;
  instanceId: number | null;
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
      gameEndAt: games.endAt,
      challenge: {
        id: challenges.id,
        title: challenges.title,
        type: challenges.type,
        isEnabled: challenges.isEnabled,
        disableBloodBonus: challenges.disableBloodBonus,
      },
      participation: { id: participations.id, status: participations.status, teamName: teams.name },
      instance: { id: gameInstances.id, flag: gameInstances.flag },
      userName: users.userName,
      staticFlag: sql<
        string | null
      >`(select f.flag from ${flags} f where f.challenge_id = ${submissions.challengeId} and f.flag = ${submissions.answer} limit 1)`,
      attachmentFlag: sql<string | null>`(select f.flag from ${flags} f where f.id = ${gameInstances.flagId})`,
    })
    .from(submissions)
    .innerJoin(games, eq(games.id, submissions.gameId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .innerJoin(participations, eq(participations.id, submissions.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .leftJoin(
      gameInstances,
      and(
        eq(gameInstances.participationId, submissions.participationId),
        eq(gameInstances.challengeId, submissions.challengeId),
      ),
    )
    .leftJoin(users, eq(users.id, submissions.userId))
    // One array parameter and a named statement: the text never changes, so each connection parses
    // it once and PostgreSQL can reuse its plan (planning a join this wide per batch cost more than running it).
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
    instanceId: row.instance?.id ?? null,
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
  const locked = await tx
    .select({ id: challenges.id, acceptedCount: challenges.acceptedCount })
    .from(challenges)
    .where(inArray(challenges.id, challengeIds))
    .orderBy(challenges.id)
    // NO KEY UPDATE, not UPDATE: new submissions check their foreign key to the challenge with
    // KEY SHARE, which UPDATE would block for the whole judgement, holding up acknowledgements.
    .for('no key update');
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
      challengeId: gameInstances.challengeId,
      participationId: gameInstances.participationId,
      teamName: teams.name,
      flag: gameInstances.flag,
      attachmentFlag: flags.flag,
    })
    .from(gameInstances)
    .innerJoin(participations, eq(participations.id, gameInstances.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .leftJoin(flags, eq(flags.id, gameInstances.flagId))
    .where(
      and(
        inArray(gameInstances.challengeId, challengeIds),
        or(inArray(gameInstances.flag, answers), inArray(flags.flag, answers)),
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
