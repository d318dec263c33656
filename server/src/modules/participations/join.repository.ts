import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { preparedQuery, type Db } from '../../db/client';
import { participations, userParticipations } from '../../db/schema/participations';
import { team, teamCard } from './team-card';
import type { ParticipationRow } from './review.repository';

const participationCount = preparedQuery((db) =>
  db
    .select({ n: count() })
    .from(participations)
    .where(eq(participations.gameId, sql.placeholder('gameId')))
    .prepare('count_participations'),
);

export async function countParticipations(db: Db, gameId: number): Promise<number> {
  const [row] = await participationCount(db).execute({ gameId });
  return row?.n ?? 0;
}

/** The user's participation in a game (any status) with its team name. */
export async function findUserParticipation(
  db: Db,
  userId: string,
  gameId: number,
): Promise<{ participation: ParticipationRow; teamName: string } | undefined> {
  const [row] = await userParticipation(db).execute({ userId, gameId });
  return row;
}

const userParticipation = preparedQuery((db) =>
  db
    .select({ participation: participations, teamName: team.name })
    .from(userParticipations)
    .innerJoin(participations, eq(participations.id, userParticipations.participationId))
    .innerJoin(team, eq(team.id, participations.teamId))
    .where(
      and(
        eq(userParticipations.userId, sql.placeholder('userId')),
        eq(userParticipations.gameId, sql.placeholder('gameId')),
      ),
    )
    .prepare('find_user_participation'),
);

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
  // Only a delete committed between the two statements leaves none; under the team's lock, which
  // every path that deletes a participation holds, that cannot happen.
  if (!row) throw new Error('the participation vanished while the team was locked');
  return row;
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

/** Participations by id with their teams (the cheat records' and the traffic lists' team cards). */
export async function listParticipationTeams(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      participation: participations,
      team: teamCard,
    })
    .from(participations)
    .innerJoin(team, eq(team.id, participations.teamId))
    .where(inArray(participations.id, ids));
}
