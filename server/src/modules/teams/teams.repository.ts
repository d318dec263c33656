import { and, asc, count, eq, gt, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { teamMembers, teams } from '../../db/schema/teams';
import { searchPattern } from '../../lib/paging';
import { sortOrder, type SortRequest } from '../../lib/sorting';
import { userRows } from '../accounts/read-models';
import { gameRows } from '../games/read-models';
import { playerContainerIds } from '../instances';
import { participationRows } from '../participations/read-models';
import { cheatRows, solveRows, submissionRows } from '../submissions/read-models';

const user = userRows();
const game = gameRows();
const participation = participationRows();
const submission = submissionRows();
const solve = solveRows();
const cheat = cheatRows();

/** The statuses a participation can have submitted in: only Accepted teams submit, and they can be suspended since. */
const PLAYED = inArray(participation.status, ['Accepted', 'Suspended']);

export type TeamRow = typeof teams.$inferSelect;
export type NewTeam = typeof teams.$inferInsert;
export type TeamChanges = Partial<
  Pick<TeamRow, 'name' | 'bio' | 'avatarHash' | 'locked' | 'inviteToken' | 'captainId'>
>;

export interface MemberRow {
  teamId: number;
  userId: string;
  userName: string;
  bio: string;
  avatarHash: string | null;
  joinedAt: Date;
}

export async function findTeam(db: Db, id: number): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.id, id));
  return row;
}

/**
 * Reads a team and row-locks it until the transaction ends: every change to a team's captain or
 * members takes this lock first, so two such changes never interleave. `share` lets several joins
 * run together while still waiting for a token refresh, a kick, a transfer or a delete.
 *
 * The exclusive mode is `no key update`, not `update`: it excludes the other writers just the same,
 * but not the key-share locks that foreign-key checks take, so rows that merely point at the team
 * (submissions, events) can still be inserted meanwhile.
 */
export async function lockTeam(
  db: Db,
  id: number,
  mode: 'no key update' | 'share' = 'no key update',
): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.id, id)).for(mode);
  return row;
}

export async function countCaptaincies(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ value: count() }).from(teams).where(eq(teams.captainId, userId));
  return row?.value ?? 0;
}

export async function insertTeam(db: Db, values: NewTeam): Promise<TeamRow> {
  const [row] = await db.insert(teams).values(values).returning();
  if (!row) throw new Error('insert into teams returned no row');
  return row;
}

export async function updateTeam(db: Db, id: number, changes: TeamChanges): Promise<TeamRow | undefined> {
  if (Object.keys(changes).length === 0) return findTeam(db, id);
  const [row] = await db.update(teams).set(changes).where(eq(teams.id, id)).returning();
  return row;
}

/**
 * Sets a team's lock (reference §5.3) when a participation of it is accepted, in the caller's
 * transaction; the players' operations clear it once no unfinished game is left.
 */
export async function setTeamLocked(tx: Db, id: number): Promise<void> {
  await tx.update(teams).set({ locked: true }).where(eq(teams.id, id));
}

/** Deletes a team; its members, participations and everything under them go with it (cascade). */
export async function deleteTeamRow(db: Db, id: number): Promise<TeamRow | undefined> {
  const [row] = await db.delete(teams).where(eq(teams.id, id)).returning();
  return row;
}

/** Adds a member; false when the user already was one (the primary key decides, however requests race). */
export async function insertMember(db: Db, teamId: number, userId: string): Promise<boolean> {
  const rows = await db
    .insert(teamMembers)
    .values({ teamId, userId })
    .onConflictDoNothing()
    .returning({ userId: teamMembers.userId });
  return rows.length > 0;
}

export async function deleteMember(db: Db, teamId: number, userId: string): Promise<boolean> {
  const rows = await db
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .returning({ userId: teamMembers.userId });
  return rows.length > 0;
}

export async function isMember(db: Db, teamId: number, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return row !== undefined;
}

/** The members of the given teams, oldest membership first. */
export async function membersOf(db: Db, teamIds: number[]): Promise<MemberRow[]> {
  if (teamIds.length === 0) return [];
  return db
    .select({
      teamId: teamMembers.teamId,
      userId: user.id,
      userName: user.userName,
      bio: user.bio,
      avatarHash: user.avatarHash,
      joinedAt: teamMembers.joinedAt,
    })
    .from(teamMembers)
    .innerJoin(user, eq(user.id, teamMembers.userId))
    .where(inArray(teamMembers.teamId, teamIds))
    .orderBy(asc(teamMembers.joinedAt), asc(user.userName));
}

/** The teams a user is a member of, in creation order. */
export async function teamsOfUser(db: Db, userId: string): Promise<TeamRow[]> {
  return db
    .select({ team: teams })
    .from(teams)
    .innerJoin(teamMembers, eq(teamMembers.teamId, teams.id))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teams.id))
    .then((rows) => rows.map((row) => row.team));
}

/** Teams whose name contains `hint` (case-insensitively) or whose id is `hint`; every team without one. */
function teamMatches(hint: string | undefined) {
  const pattern = searchPattern(hint);
  if (!pattern) return undefined;
  const text = hint!.trim();
  const id = /^\d{1,9}$/.test(text) ? Number(text) : undefined;
  return id === undefined ? ilike(teams.name, pattern) : or(ilike(teams.name, pattern), eq(teams.id, id));
}

export type TeamSort = 'id' | 'name' | 'locked';

const TEAM_SORT_COLUMNS = { id: teams.id, name: sql`lower(${teams.name})`, locked: teams.locked };

/** Teams in the order asked for, by default by id (creation order). */
export async function listTeams(
  db: Db,
  page: { count: number; skip: number } & SortRequest<TeamSort>,
  hint?: string,
): Promise<TeamRow[]> {
  return db
    .select()
    .from(teams)
    .where(teamMatches(hint))
    .orderBy(...sortOrder(TEAM_SORT_COLUMNS, teams.id, page, [asc(teams.id)]))
    .limit(page.count)
    .offset(page.skip);
}

export async function countTeams(db: Db, hint?: string): Promise<number> {
  const [row] = await db.select({ value: count() }).from(teams).where(teamMatches(hint));
  return row?.value ?? 0;
}

/** The first `limit` teams matching `hint` (GZCTF's search). */
export async function searchTeams(db: Db, hint: string, limit: number): Promise<TeamRow[]> {
  return listTeams(db, { count: limit, skip: 0 }, hint);
}

/** Whether the team takes part in a game that has not ended yet (GZCTF's `AnyActiveGame`). */
export async function inUnfinishedGame(db: Db, teamId: number, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: participation.id })
    .from(participation)
    .innerJoin(game, eq(game.id, participation.gameId))
    .where(and(eq(participation.teamId, teamId), gt(game.endAt, now)))
    .limit(1);
  return row !== undefined;
}

/**
 * What a deleted team leaves to others, read before its row goes: the games whose boards showed it,
 * and the engine ids of its containers (their rows go with it; the containers must be stopped).
 */
export async function teamTraces(db: Db, teamId: number): Promise<{ gameIds: number[]; containerIds: string[] }> {
  const games = await db
    .selectDistinct({ gameId: participation.gameId })
    .from(participation)
    .where(eq(participation.teamId, teamId));
  return { gameIds: games.map((row) => row.gameId), containerIds: await playerContainerIds(db, { teamId }) };
}

/**
 * The uploaded writeups of a team's participations, which hold file references; the rows are locked
 * until the transaction ends, so an upload in progress finishes first (and its new hash is the one
 * read) or finds the participation gone, and no hash is released twice.
 */
export async function writeupHashesOfTeam(tx: Db, teamId: number): Promise<string[]> {
  const rows = await tx
    .select({ hash: participation.writeupHash })
    .from(participation)
    .where(and(eq(participation.teamId, teamId), isNotNull(participation.writeupHash)))
    .for('update');
  return rows.map((row) => row.hash).filter((hash): hash is string => hash !== null);
}

/**
 * Whether the team has submitted a flag in any of its Accepted or Suspended participations, or had
 * its flag sent by another team there (a player may then no longer delete it: the deletion would
 * take its solves off the boards and the cheat records naming it with it). Its participations are
 * locked first (FOR UPDATE, the lock the deletion itself takes on them a moment later), and the
 * questions are statements of their own, after the lock: a flag being stored holds a key-share
 * lock on its participation (its foreign key), so this waits for it to commit and then sees it, and
 * one not yet stored waits for the deletion and finds the participation gone.
 * Whatever the judge turns into a solve is a stored flag, so no solve can land after a "no" either.
 */
export async function hasPlayed(tx: Db, teamId: number): Promise<boolean> {
  await tx.select({ id: participation.id }).from(participation).where(eq(participation.teamId, teamId)).for('update');
  const [submitted] = await tx
    .select({ id: submission.id })
    .from(submission)
    .innerJoin(participation, eq(participation.id, submission.participationId))
    .where(and(eq(participation.teamId, teamId), PLAYED))
    .limit(1);
  if (submitted) return true;
  // A team that never submitted but whose flag another team sent: the cheat record names it as the
  // source, and would go with it.
  const [leaked] = await tx
    .select({ id: cheat.submissionId })
    .from(cheat)
    .innerJoin(participation, eq(participation.id, cheat.sourceParticipationId))
    .where(and(eq(participation.teamId, teamId), PLAYED))
    .limit(1);
  return leaked !== undefined;
}

/** The games in which the team is (or was) Accepted: the only ones where it can have solves. */
export async function playedGameIds(db: Db, teamId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ gameId: participation.gameId })
    .from(participation)
    .where(and(eq(participation.teamId, teamId), PLAYED));
  return rows.map((row) => row.gameId);
}

/** The challenges the team has solved, in any game: those whose accepted counts its deletion changes. */
export async function solvedChallengeIds(db: Db, teamId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ challengeId: solve.challengeId })
    .from(solve)
    .innerJoin(participation, eq(participation.id, solve.participationId))
    .where(eq(participation.teamId, teamId));
  return rows.map((row) => row.challengeId);
}
