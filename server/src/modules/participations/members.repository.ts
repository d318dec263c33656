import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { participations, userParticipations } from '../../db/schema/participations';

/**
 * Takes a user out of every game the team entered (the participation itself stays). The teams module
 * calls it when a member leaves or is kicked, in its transaction that holds the team's row lock.
 */
export async function deleteUserParticipations(tx: Db, teamId: number, userId: string): Promise<void> {
  await tx
    .delete(userParticipations)
    .where(
      and(
        eq(userParticipations.userId, userId),
        inArray(
          userParticipations.participationId,
          tx.select({ id: participations.id }).from(participations).where(eq(participations.teamId, teamId)),
        ),
      ),
    );
}
