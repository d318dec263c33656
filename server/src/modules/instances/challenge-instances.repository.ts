import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { gameInstances } from '../../db/schema/instances';
import { challengeRows } from '../challenges/read-models';
import { participationRows } from '../participations/read-models';

const participation = participationRows();
const challenge = challengeRows();

/**
 * Links a challenge to every participation of its game (GZCTF's EnsureInstances on enabling), in the
 * caller's transaction; returns how many links it added.
 */
export async function ensureInstancesForChallenge(tx: Db, gameId: number, challengeId: number): Promise<number> {
  const result = await tx.execute<{ id: number }>(sql`
    insert into ${gameInstances} (participation_id, challenge_id)
    select ${participation.id}, ${challengeId}::integer from ${participation}
    where ${participation.gameId} = ${gameId}
    on conflict (participation_id, challenge_id) do nothing
    returning id`);
  return result.rows.length;
}

/**
 * Gives a participation an instance of every enabled challenge of its game (accepting a team), in the
 * caller's transaction; how many were new.
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
