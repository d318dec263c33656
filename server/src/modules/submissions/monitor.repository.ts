import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AnswerResult } from '../../db/schema/enums';
import { cheatInfo, submissions } from '../../db/schema/submissions';
import type { PageRequest as ListPage } from '../../lib/paging';
import { userRows } from '../accounts/read-models';
import { challengeRows } from '../challenges/read-models';
import { participationRows } from '../participations/read-models';
import { teamRows } from '../teams/read-models';

const user = userRows();
const team = teamRows();
const challenge = challengeRows();

/**
 * The queries behind the monitor's lists of a game (submissions, cheat records) and the submissions
 * sheet's batches: filtered, paged, counted.
 */

export const submissionView = {
  id: submissions.id,
  answer: submissions.answer,
  status: submissions.status,
  submittedAt: submissions.submittedAt,
  user: user.userName,
  team: team.name,
  challenge: challenge.title,
};

export interface SubmissionFilter {
  type?: AnswerResult | undefined;
  /** An ILIKE pattern (`searchPattern`) matched against team, user, challenge and answer. */
  pattern?: string | undefined;
}

function submissionConditions(gameId: number, filter: SubmissionFilter) {
  const { pattern } = filter;
  return and(
    eq(submissions.gameId, gameId),
    filter.type ? eq(submissions.status, filter.type) : undefined,
    pattern
      ? or(
          ilike(team.name, pattern),
          ilike(user.userName, pattern),
          ilike(challenge.title, pattern),
          ilike(submissions.answer, pattern),
        )
      : undefined,
  );
}

export async function listSubmissions(db: Db, gameId: number, page: ListPage, filter: SubmissionFilter = {}) {
  const query = db
    .select(submissionView)
    .from(submissions)
    .leftJoin(user, eq(user.id, submissions.userId))
    .innerJoin(team, eq(team.id, submissions.teamId))
    .innerJoin(challenge, eq(challenge.id, submissions.challengeId))
    .where(submissionConditions(gameId, filter))
    .orderBy(desc(submissions.submittedAt), desc(submissions.id));
  return page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip);
}

/**
 * One batch of a game's submissions in `listSubmissions`' order (newest first), after the row with
 * id `afterId` (keyset: the sheet export reads 50,000 rows without OFFSET rescans). The cursor row's
 * own timestamp is compared in SQL, so no precision is lost on the way through JavaScript.
 */
export async function submissionBatch(db: Db, gameId: number, afterId: number | null, limit: number) {
  return db
    .select(submissionView)
    .from(submissions)
    .leftJoin(user, eq(user.id, submissions.userId))
    .innerJoin(team, eq(team.id, submissions.teamId))
    .innerJoin(challenge, eq(challenge.id, submissions.challengeId))
    .where(
      and(
        eq(submissions.gameId, gameId),
        afterId === null
          ? undefined
          : sql`(${submissions.submittedAt}, ${submissions.id}) < (select c.submitted_at, c.id from ${submissions} c where c.id = ${afterId})`,
      ),
    )
    .orderBy(desc(submissions.submittedAt), desc(submissions.id))
    .limit(limit);
}

/** How many submissions match; the joins are only made when the search needs them. */
export async function countSubmissions(db: Db, gameId: number, filter: SubmissionFilter): Promise<number> {
  const base = db.select({ value: count() }).from(submissions);
  const [row] = filter.pattern
    ? await base
        .leftJoin(user, eq(user.id, submissions.userId))
        .innerJoin(team, eq(team.id, submissions.teamId))
        .innerJoin(challenge, eq(challenge.id, submissions.challengeId))
        .where(submissionConditions(gameId, filter))
    : await base.where(submissionConditions(gameId, filter));
  return row?.value ?? 0;
}

// A cheat record joins two participations and their teams: the submitting one and the flag's owner.
const submitParticipation = participationRows('submit_participation');
const submitTeam = teamRows('submit_team');
const sourceParticipation = participationRows('source_participation');
const sourceTeam = teamRows('source_team');

/**
 * A game's cheat records; with a pattern (`searchPattern`) only those whose submitting or owning
 * team, user, challenge or answer matches (one subquery, so listing and counting share it).
 */
function cheatInfoConditions(db: Db, gameId: number, pattern: string | undefined) {
  if (!pattern) return eq(cheatInfo.gameId, gameId);
  const matching = db
    .select({ id: cheatInfo.submissionId })
    .from(cheatInfo)
    .innerJoin(submissions, eq(submissions.id, cheatInfo.submissionId))
    .leftJoin(user, eq(user.id, submissions.userId))
    .innerJoin(challenge, eq(challenge.id, submissions.challengeId))
    .innerJoin(submitParticipation, eq(submitParticipation.id, cheatInfo.submitParticipationId))
    .innerJoin(submitTeam, eq(submitTeam.id, submitParticipation.teamId))
    .innerJoin(sourceParticipation, eq(sourceParticipation.id, cheatInfo.sourceParticipationId))
    .innerJoin(sourceTeam, eq(sourceTeam.id, sourceParticipation.teamId))
    .where(
      and(
        eq(cheatInfo.gameId, gameId),
        or(
          ilike(submitTeam.name, pattern),
          ilike(sourceTeam.name, pattern),
          ilike(user.userName, pattern),
          ilike(challenge.title, pattern),
          ilike(submissions.answer, pattern),
        ),
      ),
    );
  return and(eq(cheatInfo.gameId, gameId), inArray(cheatInfo.submissionId, matching));
}

/** Newest first: submission ids grow with submission time. */
export async function listCheatInfo(db: Db, gameId: number, page: ListPage = { count: 0, skip: 0 }, pattern?: string) {
  const query = db
    .select({
      submissionId: cheatInfo.submissionId,
      submit: cheatInfo.submitParticipationId,
      source: cheatInfo.sourceParticipationId,
    })
    .from(cheatInfo)
    .where(cheatInfoConditions(db, gameId, pattern))
    .orderBy(desc(cheatInfo.submissionId));
  return page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip);
}

export async function countCheatInfo(db: Db, gameId: number, pattern?: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(cheatInfo)
    .where(cheatInfoConditions(db, gameId, pattern));
  return row?.value ?? 0;
}

export async function listSubmissionViews(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select(submissionView)
    .from(submissions)
    .leftJoin(user, eq(user.id, submissions.userId))
    .innerJoin(team, eq(team.id, submissions.teamId))
    .innerJoin(challenge, eq(challenge.id, submissions.challengeId))
    .where(inArray(submissions.id, ids));
}
