import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { findContainer } from '../instances';
import { challenges, flags } from '../../db/schema/challenges';
import { containers, gameInstances } from '../../db/schema/instances';
import { participations } from '../../db/schema/participations';
import { solves } from '../../db/schema/submissions';
import { attachmentFileHashes } from '../attachments';

export type ChallengeRow = typeof challenges.$inferSelect;
export type NewChallenge = typeof challenges.$inferInsert;
export type ChallengeChanges = Partial<Omit<NewChallenge, 'id' | 'gameId' | 'type'>>;
export type FlagRow = typeof flags.$inferSelect;

export async function listChallenges(db: Db, gameId: number): Promise<ChallengeRow[]> {
  return db.select().from(challenges).where(eq(challenges.gameId, gameId)).orderBy(asc(challenges.id));
}

export async function findChallenge(db: Db, gameId: number, id: number): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, id), eq(challenges.gameId, gameId)));
  return row;
}

/** A challenge players can open: of this game and enabled. */
export async function findEnabledChallenge(db: Db, gameId: number, id: number): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, id), eq(challenges.gameId, gameId), eq(challenges.isEnabled, true)));
  return row;
}

/** The challenge row, locked until the transaction ends, so edits of one challenge queue up. */
export async function lockChallenge(tx: Db, gameId: number, id: number): Promise<ChallengeRow | undefined> {
  const [row] = await tx
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, id), eq(challenges.gameId, gameId)))
    .for('update');
  return row;
}

export async function insertChallenge(db: Db, values: NewChallenge): Promise<ChallengeRow> {
  const [row] = await db.insert(challenges).values(values).returning();
  return row!;
}

export async function updateChallenge(tx: Db, id: number, changes: ChallengeChanges): Promise<ChallengeRow> {
  // An update that changes nothing is legal (every field null); SQL needs at least one column to set.
  const [row] =
    Object.keys(changes).length === 0
      ? await tx.select().from(challenges).where(eq(challenges.id, id))
      : await tx.update(challenges).set(changes).where(eq(challenges.id, id)).returning();
  return row!;
}

export async function deleteChallengeRow(tx: Db, id: number): Promise<boolean> {
  const rows = await tx.delete(challenges).where(eq(challenges.id, id)).returning({ id: challenges.id });
  return rows.length > 0;
}

export async function listFlags(db: Db, challengeId: number): Promise<FlagRow[]> {
  return db.select().from(flags).where(eq(flags.challengeId, challengeId)).orderBy(asc(flags.id));
}

export async function countFlags(db: Db, challengeId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(flags).where(eq(flags.challengeId, challengeId));
  return row?.value ?? 0;
}

/**
 * Takes a random free flag of a dynamic-attachment challenge (marked occupied, in the caller's
 * transaction); undefined when none is left. Locked rows are skipped, so concurrent takers never wait.
 */
export async function takeFreeFlag(tx: Db, challengeId: number): Promise<number | undefined> {
  const [flag] = await tx
    .select({ id: flags.id })
    .from(flags)
    .where(and(eq(flags.challengeId, challengeId), eq(flags.isOccupied, false)))
    .orderBy(sql`random()`)
    .limit(1)
    .for('update', { skipLocked: true });
  if (!flag) return undefined;
  await tx.update(flags).set({ isOccupied: true }).where(eq(flags.id, flag.id));
  return flag.id;
}

export async function findFlagAttachmentId(db: Db, flagId: number): Promise<number | null> {
  const [row] = await db.select({ attachmentId: flags.attachmentId }).from(flags).where(eq(flags.id, flagId));
  return row?.attachmentId ?? null;
}

export async function insertFlags(
  tx: Db,
  rows: Array<{ challengeId: number; flag: string; attachmentId: number | null }>,
): Promise<void> {
  if (rows.length > 0) await tx.insert(flags).values(rows);
}

export async function deleteFlagRow(tx: Db, challengeId: number, id: number): Promise<FlagRow | undefined> {
  const [row] = await tx
    .delete(flags)
    .where(and(eq(flags.id, id), eq(flags.challengeId, challengeId)))
    .returning();
  return row;
}

/** Links a challenge to every participation of its game (GZCTF's EnsureInstances on enabling). */
export async function ensureInstancesForChallenge(tx: Db, gameId: number, challengeId: number): Promise<number> {
  const result = await tx.execute<{ id: number }>(sql`
    insert into ${gameInstances} (participation_id, challenge_id)
    select ${participations.id}, ${challengeId}::integer from ${participations}
    where ${participations.gameId} = ${gameId}
    on conflict (participation_id, challenge_id) do nothing
    returning id`);
  return result.rows.length;
}

/** What deleting a challenge leaves behind: attachments, its test container, running containers. */
export interface ChallengeLeftovers {
  attachmentIds: number[];
  attachmentHashes: string[];
  testContainerIds: string[];
  runtimeContainerIds: string[];
}

export async function challengeLeftovers(tx: Db, challenge: ChallengeRow): Promise<ChallengeLeftovers> {
  const flagRows = await tx
    .select({ attachmentId: flags.attachmentId })
    .from(flags)
    .where(and(eq(flags.challengeId, challenge.id), isNotNull(flags.attachmentId)));
  const attachmentIds = [challenge.attachmentId, ...flagRows.map((row) => row.attachmentId)].filter(
    (id): id is number => id !== null,
  );
  const players = await tx
    .select({ containerId: containers.containerId })
    .from(containers)
    .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
    .where(eq(gameInstances.challengeId, challenge.id));
  const test = challenge.testContainerId ? await findContainer(tx, challenge.testContainerId) : undefined;
  return {
    attachmentIds,
    attachmentHashes: await attachmentFileHashes(tx, attachmentIds),
    testContainerIds: test ? [test.id] : [],
    runtimeContainerIds: [...players.map((row) => row.containerId), ...(test ? [test.containerId] : [])],
  };
}

/**
 * Sets every challenge's accepted count of a game to the number of its solves by Accepted
 * participations before the game's end (what the flag checker counts live).
 */
export async function recomputeAcceptedCounts(tx: Db, gameId: number, endAt: Date): Promise<void> {
  await tx
    .update(challenges)
    .set({
      acceptedCount: sql`(
        select count(*)::integer from ${solves}
        inner join ${participations} on ${participations.id} = ${solves.participationId}
        where ${solves.challengeId} = ${challenges.id}
          and ${participations.status} = 'Accepted'
          and ${solves.solvedAt} < ${endAt}
      )`,
    })
    .where(eq(challenges.gameId, gameId));
}
