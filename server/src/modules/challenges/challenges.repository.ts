import { and, asc, count, eq, inArray, isNotNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { preparedQuery, type Db } from '../../db/client';
import { findContainer, playerContainerIds } from '../instances';
import { challenges, flags } from '../../db/schema/challenges';
import { gameRows } from '../games/read-models';
import { participationRows } from '../participations/read-models';
import { solveRows } from '../submissions/read-models';
import { attachmentFileHashes } from '../attachments';

// What the challenges module reads of other modules' tables, through their read models (lib/read-model.ts).
const participation = participationRows();
const solve = solveRows();
const game = gameRows();

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
const enabledChallenge = preparedQuery((db) =>
  db
    .select()
    .from(challenges)
    .where(
      and(
        eq(challenges.id, sql.placeholder('id')),
        eq(challenges.gameId, sql.placeholder('gameId')),
        eq(challenges.isEnabled, true),
      ),
    )
    .prepare('find_enabled_challenge'),
);

export async function findEnabledChallenge(db: Db, gameId: number, id: number): Promise<ChallengeRow | undefined> {
  const [row] = await enabledChallenge(db).execute({ id, gameId });
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
  const players = await playerContainerIds(tx, { challengeId: challenge.id });
  const test = challenge.testContainerId ? await findContainer(tx, challenge.testContainerId) : undefined;
  return {
    attachmentIds,
    attachmentHashes: await attachmentFileHashes(tx, attachmentIds),
    testContainerIds: test ? [test.id] : [],
    runtimeContainerIds: [...players, ...(test ? [test.containerId] : [])],
  };
}

/**
 * The solves the board counts of the challenge being updated: by Accepted participations, before
 * `endAt` (its game's end), as `buildScoreboard` counts them (scoreboard module).
 */
const countedSolves = (endAt: SQL) => sql`(
  select count(*)::integer from ${solve}
  inner join ${participation} on ${participation.id} = ${solve.participationId}
  where ${solve.challengeId} = ${challenges.id}
    and ${participation.status} = 'Accepted'
    and ${solve.solvedAt} < ${endAt}
)`;

/**
 * Sets every challenge's accepted count of a game to the number of its solves by Accepted
 * participations before the game's end (what the flag checker counts live), in the caller's
 * transaction. The challenges are locked first, in id order as the judge locks them (no deadlock with
 * a judgement), and counted by a separate statement: in READ COMMITTED one statement that waited for a
 * judgement's lock keeps its old snapshot for the count and would undo the judgement's increment.
 */
export async function recomputeAcceptedCounts(tx: Db, gameId: number, endAt: Date): Promise<void> {
  const ids = (await tx.select({ id: challenges.id }).from(challenges).where(eq(challenges.gameId, gameId))).map(
    (row) => row.id,
  );
  if (ids.length === 0) return;
  const locked = (await lockChallengeCounts(tx, ids)).map((row) => row.id);
  if (locked.length === 0) return;
  await tx
    .update(challenges)
    .set({ acceptedCount: countedSolves(sql`${endAt}`) })
    .where(inArray(challenges.id, locked));
}

/**
 * `recomputeAcceptedCounts` for some challenges only, of any games (each counted up to its own
 * game's end): what a participation's change of status or a team's deletion calls, in its own
 * transaction, for the challenges whose solves it changed. The same rules: the challenges are locked
 * in id order as the judge locks them (a caller that already holds them locks nothing new), and
 * the count is a statement of its own, so it sees every judgement it waited for.
 */
export async function recountAcceptedCounts(tx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const locked = (await lockChallengeCounts(tx, ids)).map((row) => row.id);
  if (locked.length === 0) return;
  await tx
    .update(challenges)
    .set({
      acceptedCount: countedSolves(sql`(select ${game.endAt} from ${game} where ${game.id} = ${challenges.gameId})`),
    })
    .where(inArray(challenges.id, locked));
}

/**
 * Locks every challenge of the given games in id order, as the judge locks them (`lockChallengeCounts`),
 * and returns their ids. Deleting a team takes them before anything of the team's participations:
 * held, no solve of the team can land meanwhile, so the solves it reads next are all the deletion
 * removes (teams module, admin.service.ts).
 */
export async function lockChallengesOfGames(tx: Db, gameIds: number[]): Promise<number[]> {
  if (gameIds.length === 0) return [];
  const ids = await tx.select({ id: challenges.id }).from(challenges).where(inArray(challenges.gameId, gameIds));
  if (ids.length === 0) return [];
  return (
    await lockChallengeCounts(
      tx,
      ids.map((row) => row.id),
    )
  ).map((row) => row.id);
}

/**
 * Locks the challenges in id order (no deadlock between the judge's batches) and reads their
 * accepted counts under the lock, in the caller's transaction.
 */
export async function lockChallengeCounts(
  tx: Db,
  ids: number[],
): Promise<Array<{ id: number; acceptedCount: number }>> {
  return (
    tx
      .select({ id: challenges.id, acceptedCount: challenges.acceptedCount })
      .from(challenges)
      .where(inArray(challenges.id, ids))
      .orderBy(challenges.id)
      // NO KEY UPDATE, not UPDATE: new submissions check their foreign key to the challenge with
      // KEY SHARE, which UPDATE would block for the whole judgement, holding up acknowledgements.
      .for('no key update')
  );
}

/**
 * The judge's counter update, one data-modifying member of the WITH of its one write statement
 * (submissions/judge/writes.ts): adds each challenge's new solves to its `acceptedCount`.
 * `counters` is the parameter holding them as JSON, `[{id, solved}]`: the judge builds its statement
 * once, with a placeholder here, and fills it per batch.
 */
export function addJudgedCounts(counters: SQLWrapper): SQL {
  return sql`update ${challenges} c
      set accepted_count = c.accepted_count + d.solved
      from json_to_recordset(${counters}::json) as d(id int, solved int)
      where c.id = d.id`;
}
