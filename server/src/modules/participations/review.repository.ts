import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { challenges } from '../../db/schema/challenges';
import { games } from '../../db/schema/games';
import { gameInstances } from '../../db/schema/instances';
import { participations } from '../../db/schema/participations';

export type ParticipationRow = typeof participations.$inferSelect;

export interface ParticipationUnderReview {
  participation: ParticipationRow;
  game: { id: number; divisions: string[] | null; startAt: Date; endAt: Date };
}

/** The participation (locked until the transaction ends) and what of its game the review needs. */
export async function lockParticipation(tx: Db, id: number): Promise<ParticipationUnderReview | undefined> {
  const [row] = await tx
    .select({
      participation: participations,
      game: { id: games.id, divisions: games.divisions, startAt: games.startAt, endAt: games.endAt },
    })
    .from(participations)
    .innerJoin(games, eq(games.id, participations.gameId))
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

/** Gives a participation an instance of every enabled challenge of its game; how many were new. */
export async function ensureInstancesForParticipation(
  tx: Db,
  participationId: number,
  gameId: number,
): Promise<number> {
  const result = await tx.execute<{ id: number }>(sql`
    insert into ${gameInstances} (participation_id, challenge_id)
    select ${participationId}::integer, ${challenges.id} from ${challenges}
    where ${challenges.gameId} = ${gameId} and ${challenges.isEnabled}
    on conflict (participation_id, challenge_id) do nothing
    returning id`);
  return result.rows.length;
}
