import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { challenges, flags } from '../../db/schema/challenges';
import { games } from '../../db/schema/games';
import { gameInstances } from '../../db/schema/instances';
import { gameNotices } from '../../db/schema/notices';
import { participations, userParticipations } from '../../db/schema/participations';
import { submissions } from '../../db/schema/submissions';
import { teamMembers, teams } from '../../db/schema/teams';
import type { AnswerResult } from '../../db/schema/enums';

export type GameRow = typeof games.$inferSelect;
export type ParticipationRow = typeof participations.$inferSelect;
export type InstanceRow = typeof gameInstances.$inferSelect;
export type ChallengeRow = typeof challenges.$inferSelect;

/** Games players may browse: newest start first (hidden ones are reachable by id only). */
export async function listVisibleGames(db: Db, page: { count: number; skip: number }): Promise<GameRow[]> {
  const query = db.select().from(games).where(eq(games.hidden, false)).orderBy(desc(games.startAt), desc(games.id));
  return page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip);
}

export async function countAllGames(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(games);
  return row?.n ?? 0;
}

export async function findGame(db: Db, id: number): Promise<GameRow | undefined> {
  const [row] = await db.select().from(games).where(eq(games.id, id));
  return row;
}

export async function countParticipations(db: Db, gameId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(participations).where(eq(participations.gameId, gameId));
  return row?.n ?? 0;
}

/** The user's participation in a game (any status) with its team name. */
export async function findUserParticipation(
  db: Db,
  userId: string,
  gameId: number,
): Promise<{ participation: ParticipationRow; teamName: string } | undefined> {
  const [row] = await db
    .select({ participation: participations, teamName: teams.name })
    .from(userParticipations)
    .innerJoin(participations, eq(participations.id, userParticipations.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(and(eq(userParticipations.userId, userId), eq(userParticipations.gameId, gameId)));
  return row;
}

export async function findTeamWithMember(db: Db, teamId: number, userId: string) {
  const [team] = await db.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId));
  if (!team) return undefined;
  const [member] = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return { isMember: member !== undefined };
}

export async function deleteRejectedMemberships(tx: Db, userId: string, gameId: number): Promise<void> {
  await tx.execute(sql`
    delete from ${userParticipations} up using ${participations} p
    where p.id = up.participation_id and up.user_id = ${userId} and up.game_id = ${gameId}
      and p.status = 'Rejected'`);
}

/** The team's participation in the game, created (with its token) when missing; locked for the transaction. */
export async function lockOrCreateParticipation(
  tx: Db,
  values: { gameId: number; teamId: number; token: string; division: string | null },
): Promise<ParticipationRow> {
  await tx.insert(participations).values(values).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(participations)
    .where(and(eq(participations.gameId, values.gameId), eq(participations.teamId, values.teamId)))
    .for('update');
  return row!;
}

export async function countMembers(tx: Db, participationId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(userParticipations)
    .where(eq(userParticipations.participationId, participationId));
  return row?.n ?? 0;
}

export async function insertMembership(tx: Db, userId: string, gameId: number, participationId: number) {
  await tx.insert(userParticipations).values({ userId, gameId, participationId });
}

export async function setParticipation(
  tx: Db,
  id: number,
  changes: Partial<Pick<ParticipationRow, 'status' | 'division'>>,
): Promise<void> {
  await tx.update(participations).set(changes).where(eq(participations.id, id));
}

export async function deleteMembership(tx: Db, userId: string, gameId: number): Promise<void> {
  await tx
    .delete(userParticipations)
    .where(and(eq(userParticipations.userId, userId), eq(userParticipations.gameId, gameId)));
}

export async function deleteParticipation(tx: Db, id: number): Promise<string | null> {
  const [row] = await tx
    .delete(participations)
    .where(eq(participations.id, id))
    .returning({ writeupHash: participations.writeupHash });
  return row?.writeupHash ?? null;
}

export async function findEnabledChallenge(db: Db, gameId: number, id: number): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, id), eq(challenges.gameId, gameId), eq(challenges.isEnabled, true)));
  return row;
}

export async function lockOrCreateInstance(tx: Db, participationId: number, challengeId: number): Promise<InstanceRow> {
  await tx.insert(gameInstances).values({ participationId, challengeId }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(gameInstances)
    .where(and(eq(gameInstances.participationId, participationId), eq(gameInstances.challengeId, challengeId)))
    .for('update');
  return row!;
}

/** Takes a random free flag of a dynamic-attachment challenge for an instance; undefined when none is left. */
export async function assignFreeFlag(tx: Db, instanceId: number, challengeId: number): Promise<number | undefined> {
  const [flag] = await tx
    .select({ id: flags.id })
    .from(flags)
    .where(and(eq(flags.challengeId, challengeId), eq(flags.isOccupied, false)))
    .orderBy(sql`random()`)
    .limit(1)
    .for('update', { skipLocked: true });
  if (!flag) return undefined;
  await tx.update(flags).set({ isOccupied: true }).where(eq(flags.id, flag.id));
  await tx.update(gameInstances).set({ flagId: flag.id }).where(eq(gameInstances.id, instanceId));
  return flag.id;
}

export async function setInstanceFlag(tx: Db, instanceId: number, flag: string): Promise<void> {
  await tx.update(gameInstances).set({ flag }).where(eq(gameInstances.id, instanceId));
}

export async function findFlagAttachmentId(db: Db, flagId: number): Promise<number | null> {
  const [row] = await db.select({ attachmentId: flags.attachmentId }).from(flags).where(eq(flags.id, flagId));
  return row?.attachmentId ?? null;
}

export async function findOwnSubmissionStatus(
  db: Db,
  id: number,
  userId: string,
  participationId: number,
  challengeId: number,
): Promise<AnswerResult | undefined> {
  const [row] = await db
    .select({ status: submissions.status })
    .from(submissions)
    .where(
      and(
        eq(submissions.id, id),
        eq(submissions.userId, userId),
        eq(submissions.participationId, participationId),
        eq(submissions.challengeId, challengeId),
      ),
    );
  return row?.status;
}

export async function listNotices(db: Db, gameId: number) {
  // Normal notices first, then the platform's, each newest first (reference §2.5).
  return db
    .select()
    .from(gameNotices)
    .where(eq(gameNotices.gameId, gameId))
    .orderBy(sql`${gameNotices.type} = 'Normal' desc`, desc(gameNotices.publishedAt), desc(gameNotices.id));
}

export async function setFreezeAt(db: Db, gameId: number, freezeAt: Date | null): Promise<boolean> {
  const rows = await db.update(games).set({ freezeAt }).where(eq(games.id, gameId)).returning({ id: games.id });
  return rows.length > 0;
}
