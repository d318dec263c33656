import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { challenges, flags } from '../../db/schema/challenges';
import { games } from '../../db/schema/games';
import { containers, gameInstances } from '../../db/schema/instances';
import { participations } from '../../db/schema/participations';
import { attachmentFileHashes } from '../attachments';
import { sortOrder, type SortRequest } from '../../lib/sorting';

export type GameRow = typeof games.$inferSelect;
export type NewGame = typeof games.$inferInsert;
/** The columns an admin edits (everything but the id, keys and poster). */
export type GameSettings = Omit<NewGame, 'id' | 'publicKey' | 'privateKey' | 'posterHash'>;

export type GameSort = 'id' | 'title' | 'start' | 'end';

const GAME_SORT_COLUMNS = { id: games.id, title: sql`lower(${games.title})`, start: games.startAt, end: games.endAt };

/** Games in the order asked for, by default newest id first. */
export async function listGames(
  db: Db,
  page: { count: number; skip: number } & SortRequest<GameSort>,
): Promise<GameRow[]> {
  return db
    .select()
    .from(games)
    .orderBy(...sortOrder(GAME_SORT_COLUMNS, games.id, page, [desc(games.id)]))
    .limit(page.count)
    .offset(page.skip);
}

/** Games players may browse: newest start first (hidden ones are reachable by id only). */
export async function listVisibleGames(db: Db, page: { count: number; skip: number }): Promise<GameRow[]> {
  const query = db.select().from(games).where(eq(games.hidden, false)).orderBy(desc(games.startAt), desc(games.id));
  return page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip);
}

export async function countGames(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(games);
  return row?.value ?? 0;
}

export async function findGame(db: Db, id: number): Promise<GameRow | undefined> {
  const [row] = await db.select().from(games).where(eq(games.id, id));
  return row;
}

/** The game row, locked until the transaction ends (for read-modify-write such as the poster). */
export async function lockGame(tx: Db, id: number): Promise<GameRow | undefined> {
  const [row] = await tx.select().from(games).where(eq(games.id, id)).for('update');
  return row;
}

export async function setFreezeAt(db: Db, gameId: number, freezeAt: Date | null): Promise<boolean> {
  const rows = await db.update(games).set({ freezeAt }).where(eq(games.id, gameId)).returning({ id: games.id });
  return rows.length > 0;
}

export async function insertGame(db: Db, values: NewGame): Promise<GameRow> {
  const [row] = await db.insert(games).values(values).returning();
  return row!;
}

export async function updateGame(
  db: Db,
  id: number,
  changes: Partial<GameSettings> & { posterHash?: string | null },
): Promise<GameRow | undefined> {
  const [row] = await db.update(games).set(changes).where(eq(games.id, id)).returning();
  return row;
}

export async function deleteGameRow(tx: Db, id: number): Promise<boolean> {
  const rows = await tx.delete(games).where(eq(games.id, id)).returning({ id: games.id });
  return rows.length > 0;
}

/** Everything a game owns that its cascade does not clean up: attachments, test containers, files. */
export interface GameLeftovers {
  attachmentIds: number[];
  /** Local files of those attachments (one entry per attachment, so per reference). */
  attachmentHashes: string[];
  testContainerIds: string[];
  /** Docker / Kubernetes ids of every container row that goes (players' and test ones). */
  runtimeContainerIds: string[];
  writeupHashes: string[];
}

export async function gameLeftovers(tx: Db, gameId: number): Promise<GameLeftovers> {
  const challengeRows = await tx
    .select({ attachmentId: challenges.attachmentId, testContainerId: challenges.testContainerId })
    .from(challenges)
    .where(eq(challenges.gameId, gameId));
  const flagRows = await tx
    .select({ attachmentId: flags.attachmentId })
    .from(flags)
    .innerJoin(challenges, eq(challenges.id, flags.challengeId))
    .where(and(eq(challenges.gameId, gameId), isNotNull(flags.attachmentId)));
  const attachmentIds = [
    ...challengeRows.map((row) => row.attachmentId),
    ...flagRows.map((row) => row.attachmentId),
  ].filter((id): id is number => id !== null);
  const testContainerIds = challengeRows.map((row) => row.testContainerId).filter((id): id is string => id !== null);
  const playerContainers = await tx
    .select({ containerId: containers.containerId })
    .from(containers)
    .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
    .innerJoin(challenges, eq(challenges.id, gameInstances.challengeId))
    .where(eq(challenges.gameId, gameId));
  const testContainers = testContainerIds.length
    ? await tx
        .select({ containerId: containers.containerId })
        .from(containers)
        .where(inArray(containers.id, testContainerIds))
    : [];
  const writeups = await tx
    .select({ hash: participations.writeupHash })
    .from(participations)
    .where(and(eq(participations.gameId, gameId), isNotNull(participations.writeupHash)));
  return {
    attachmentIds,
    attachmentHashes: await attachmentFileHashes(tx, attachmentIds),
    testContainerIds,
    runtimeContainerIds: [...playerContainers, ...testContainers].map((row) => row.containerId),
    writeupHashes: writeups.map((row) => row.hash!),
  };
}

/** Test containers belong to no game instance, so no cascade reaches them. */
export async function deleteTestContainers(tx: Db, ids: string[]): Promise<void> {
  if (ids.length > 0)
    await tx.delete(containers).where(and(inArray(containers.id, ids), isNull(containers.gameInstanceId)));
}
