import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { challenges } from '../../db/schema/challenges';
import { gameEvents } from '../../db/schema/notices';
import { participations, userParticipations } from '../../db/schema/participations';
import { cheatInfo, submissions } from '../../db/schema/submissions';
import { teamMembers, teams } from '../../db/schema/teams';
import { users } from '../../db/schema/users';
import type { AnswerResult, EventType, ParticipationStatus } from '../../db/schema/enums';
import type { PageRequest as ListPage } from '../../lib/paging';
import { likePattern } from '../../lib/paging';

/**
 * The queries behind the monitor's and the reviewer's lists of a game (events, submissions, cheat
 * records, participations) and the submissions sheet's batches: filtered, paged, counted.
 */

export interface EventFilter {
  hideContainer: boolean;
  type?: EventType | undefined;
  /** An ILIKE pattern (`searchPattern`) matched against team, user and the event's values. */
  pattern?: string | undefined;
}

function eventConditions(gameId: number, filter: EventFilter) {
  const { pattern } = filter;
  return and(
    eq(gameEvents.gameId, gameId),
    filter.hideContainer ? inArray(gameEvents.type, ['Normal', 'FlagSubmit', 'CheatDetected']) : undefined,
    filter.type ? eq(gameEvents.type, filter.type) : undefined,
    pattern
      ? or(
          ilike(teams.name, pattern),
          ilike(users.userName, pattern),
          ilike(sql`array_to_string(${gameEvents.values}, ' ')`, pattern),
        )
      : undefined,
  );
}

export async function listEvents(db: Db, gameId: number, page: ListPage, filter: EventFilter) {
  const query = db
    .select({ event: gameEvents, user: users.userName, team: teams.name })
    .from(gameEvents)
    .leftJoin(users, eq(users.id, gameEvents.userId))
    .leftJoin(teams, eq(teams.id, gameEvents.teamId))
    .where(eventConditions(gameId, filter))
    .orderBy(desc(gameEvents.at), desc(gameEvents.id));
  return page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip);
}

export async function countEvents(db: Db, gameId: number, filter: EventFilter): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(gameEvents)
    .leftJoin(users, eq(users.id, gameEvents.userId))
    .leftJoin(teams, eq(teams.id, gameEvents.teamId))
    .where(eventConditions(gameId, filter));
  return row?.value ?? 0;
}

export const submissionView = {
  id: submissions.id,
  answer: submissions.answer,
  status: submissions.status,
  submittedAt: submissions.submittedAt,
  user: users.userName,
  team: teams.name,
  challenge: challenges.title,
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
          ilike(teams.name, pattern),
          ilike(users.userName, pattern),
          ilike(challenges.title, pattern),
          ilike(submissions.answer, pattern),
        )
      : undefined,
  );
}

export async function listSubmissions(db: Db, gameId: number, page: ListPage, filter: SubmissionFilter = {}) {
  const query = db
    .select(submissionView)
    .from(submissions)
    .leftJoin(users, eq(users.id, submissions.userId))
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
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
    .leftJoin(users, eq(users.id, submissions.userId))
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
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
        .leftJoin(users, eq(users.id, submissions.userId))
        .innerJoin(teams, eq(teams.id, submissions.teamId))
        .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
        .where(submissionConditions(gameId, filter))
    : await base.where(submissionConditions(gameId, filter));
  return row?.value ?? 0;
}

const submitParticipation = alias(participations, 'submit_participation');
const submitTeam = alias(teams, 'submit_team');
const sourceParticipation = alias(participations, 'source_participation');
const sourceTeam = alias(teams, 'source_team');

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
    .leftJoin(users, eq(users.id, submissions.userId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
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
          ilike(users.userName, pattern),
          ilike(challenges.title, pattern),
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

export async function listParticipationTeams(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      participation: participations,
      team: {
        id: teams.id,
        name: teams.name,
        bio: teams.bio,
        avatarHash: teams.avatarHash,
        locked: teams.locked,
        captainId: teams.captainId,
      },
    })
    .from(participations)
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(inArray(participations.id, ids));
}

export async function listSubmissionViews(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select(submissionView)
    .from(submissions)
    .leftJoin(users, eq(users.id, submissions.userId))
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .where(inArray(submissions.id, ids));
}

/** Every participation of a game with its team, members and registered members (admin review). */
export interface ParticipationFilter {
  page?: { count: number; skip: number };
  status?: ParticipationStatus;
  division?: string;
  /** Part of the team name, matched case-insensitively. */
  search?: string;
}

/**
 * The review list: one page (or all) of a game's participations by team id, the filtered total,
 * and the members and registered users of just those teams. The total rides on every row as a
 * window count, so a page costs one scan of the filtered rows; a page past the end reads it apart.
 */
export async function listGameParticipations(db: Db, gameId: number, filter: ParticipationFilter = {}) {
  const where = and(
    eq(participations.gameId, gameId),
    filter.status ? eq(participations.status, filter.status) : undefined,
    filter.division !== undefined ? eq(participations.division, filter.division) : undefined,
    filter.search !== undefined ? ilike(teams.name, likePattern(filter.search)) : undefined,
  );
  const query = db
    .select({ participation: participations, team: teams, total: sql<number>`(count(*) over ())::integer` })
    .from(participations)
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(where)
    .orderBy(asc(teams.id), asc(participations.id));
  const rows = filter.page ? await query.limit(filter.page.count).offset(filter.page.skip) : await query;
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.page && filter.page.skip > 0) {
    const [counted] = await db
      .select({ total: count() })
      .from(participations)
      .innerJoin(teams, eq(teams.id, participations.teamId))
      .where(where);
    total = counted?.total ?? 0;
  }
  const teamIds = rows.map((row) => row.team.id);
  const participationIds = rows.map((row) => row.participation.id);
  const [members, registered] = await Promise.all([
    teamIds.length
      ? db
          .select({ teamId: teamMembers.teamId, user: users })
          .from(teamMembers)
          .innerJoin(users, eq(users.id, teamMembers.userId))
          .where(inArray(teamMembers.teamId, teamIds))
      : [],
    participationIds.length
      ? db
          .select({ participationId: userParticipations.participationId, userId: userParticipations.userId })
          .from(userParticipations)
          .where(
            and(eq(userParticipations.gameId, gameId), inArray(userParticipations.participationId, participationIds)),
          )
      : [],
  ]);
  return { rows, total, members, registered };
}
