import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { gameInstances } from '../../db/schema/instances';
import { challengeRows } from '../challenges/read-models';

const challenge = challengeRows();

/**
 * Gives a participation an instance of every enabled challenge of its game, inside the caller's
 * transaction (accepting a team); how many were new. One statement, so a challenge enabled meanwhile
 * cannot be missed between a read and the inserts.
 */
export async function ensureInstancesForParticipation(
  tx: Db,
  participationId: number,
  gameId: number,
): Promise<number> {
  const result = await tx.execute<{ id: number }>(sql`
    insert into ${gameInstances} (participation_id, challenge_id)
    select ${participationId}::integer, ${challenge.id} from ${challenge}
    where ${challenge.gameId} = ${gameId} and ${challenge.isEnabled}
    on conflict (participation_id, challenge_id) do nothing
    returning id`);
  return result.rows.length;
}
