import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { participations } from '../../db/schema/participations';
import { gameRows } from '../games/read-models';

const game = gameRows();

export type ParticipationRow = typeof participations.$inferSelect;

export interface ParticipationUnderReview {
  participation: ParticipationRow;
  game: { id: number; divisions: string[] | null; startAt: Date; endAt: Date };
}

/** The team a participation belongs to (it never changes), read without a lock: whose lock to take first. */
export async function participationTeam(tx: Db, id: number): Promise<number | undefined> {
  const [row] = await tx
    .select({ teamId: participations.teamId })
    .from(participations)
    .where(eq(participations.id, id));
  return row?.teamId;
}

/** The participation (locked until the transaction ends) and what of its game the review needs. */
export async function lockParticipation(tx: Db, id: number): Promise<ParticipationUnderReview | undefined> {
  const [row] = await tx
    .select({
      participation: participations,
      game: { id: game.id, divisions: game.divisions, startAt: game.startAt, endAt: game.endAt },
    })
    .from(participations)
    .innerJoin(game, eq(game.id, participations.gameId))
    .where(eq(participations.id, id))
    .for('update', { of: participations });
  return row;
}

export async function updateParticipation(
  tx: Db,
  id: number,
  changes: Partial<Pick<ParticipationRow, 'status' | 'division'>>,
): Promise<void> {
  await tx.update(participations).set(changes).where(eq(participations.id, id));
}
