import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { participations } from '../../db/schema/participations';
import { gameRows } from '../games/read-models';
import { solveRows } from '../submissions/read-models';

const game = gameRows();
const solve = solveRows();

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

/**
 * The participation (locked until the transaction ends) and what of its game the review needs.
 * NO KEY UPDATE, not UPDATE: it excludes the other writers of the row just the same, but not the
 * key-share locks of foreign-key checks. The judge takes those (a solve, a cheat record point at the
 * participation) while it holds challenges the review then locks to recount: with UPDATE here the
 * two would wait for each other.
 */
export async function lockParticipation(tx: Db, id: number): Promise<ParticipationUnderReview | undefined> {
  const [row] = await tx
    .select({
      participation: participations,
      game: { id: game.id, divisions: game.divisions, startAt: game.startAt, endAt: game.endAt },
    })
    .from(participations)
    .innerJoin(game, eq(game.id, participations.gameId))
    .where(eq(participations.id, id))
    .for('no key update', { of: participations });
  return row;
}

export async function updateParticipation(
  tx: Db,
  id: number,
  changes: Partial<Pick<ParticipationRow, 'status' | 'division'>>,
): Promise<void> {
  await tx.update(participations).set(changes).where(eq(participations.id, id));
}

/** The challenges a participation has solved: those whose accepted counts a change of its status moves. */
export async function solvedChallengeIds(tx: Db, participationId: number): Promise<number[]> {
  const rows = await tx
    .select({ challengeId: solve.challengeId })
    .from(solve)
    .where(eq(solve.participationId, participationId));
  return rows.map((row) => row.challengeId);
}
