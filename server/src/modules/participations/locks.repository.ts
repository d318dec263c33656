import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { participations } from '../../db/schema/participations';

/**
 * Row-locks a participation until the caller's transaction ends. The instances module takes it to
 * serialise one team's container operations (count limit, oldest-first eviction).
 */
export async function lockParticipationRow(tx: Db, id: number): Promise<void> {
  await tx.select({ id: participations.id }).from(participations).where(eq(participations.id, id)).for('update');
}
