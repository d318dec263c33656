import { and, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { containers } from '../../db/schema/instances';

/**
 * Deletes test container rows (a deleted challenge's or game's), in the caller's transaction. Test
 * containers belong to no game instance, so no cascade reaches them.
 */
export async function deleteTestContainers(tx: Db, ids: string[]): Promise<void> {
  if (ids.length > 0)
    await tx.delete(containers).where(and(inArray(containers.id, ids), isNull(containers.gameInstanceId)));
}
