import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { challenges } from '../../db/schema/challenges';

/** Points a challenge at its test container (or at none), in the instances module's transaction. */
export async function setTestContainer(tx: Db, challengeId: number, containerId: string | null): Promise<void> {
  await tx.update(challenges).set({ testContainerId: containerId }).where(eq(challenges.id, challengeId));
}
