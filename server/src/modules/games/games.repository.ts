import { and, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { preparedQuery, type Db } from '../../db/client';
import { games } from '../../db/schema/games';
import { attachmentFileHashes } from '../attachments';
import { challengeRows, flagRows } from '../challenges/read-models';
import { playerContainerIds } from '../instances';
import { containerRows } from '../instances/read-models';
import { participationRows } from '../participations/read-models';
import { sortOrder, type SortRequest } from '../../lib/sorting';

const challenge = challengeRows();
const flag = flagRows();
const container = containerRows();
const participation = participationRows();

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

const gameById = preparedQuery((db) =>
  db
    .select()
    .from(games)
    .where(eq(games.id, sql.placeholder('id')))
    .prepare('find_game'),
);

export async function findGame(db: Db, id: number): Promise<GameRow | undefined> {
  const [row] = await gameById(db).execute({ id });
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
  /** The game's challenges (their captures go once the game is deleted). */
  challengeIds: number[];
  /** Docker / Kubernetes ids of every container row that goes (players' and test ones). */
  runtimeContainerIds: string[];
  writeupHashes: string[];
}

export async function gameLeftovers(tx: Db, gameId: number): Promise<GameLeftovers> {
  const challengeList = await tx
    .select({ id: challenge.id, attachmentId: challenge.attachmentId, testContainerId: challenge.testContainerId })
    .from(challenge)
    .where(eq(challenge.gameId, gameId));
  const flagList = await tx
    .select({ attachmentId: flag.attachmentId })
    .from(flag)
    .innerJoin(challenge, eq(challenge.id, flag.challengeId))
    .where(and(eq(challenge.gameId, gameId), isNotNull(flag.attachmentId)));
  const attachmentIds = [
    ...challengeList.map((row) => row.attachmentId),
    ...flagList.map((row) => row.attachmentId),
  ].filter((id): id is number => id !== null);
  const testContainerIds = challengeList.map((row) => row.testContainerId).filter((id): id is string => id !== null);
  const playerContainers = await playerContainerIds(tx, { gameId });
  const testContainers = testContainerIds.length
    ? await tx
        .select({ containerId: container.containerId })
        .from(container)
        .where(inArray(container.id, testContainerIds))
    : [];
  // Locked until the transaction ends, so a writeup upload in progress finishes first (its new hash
  // is the one read) or finds the participation gone: no hash is released twice.
  const writeups = await tx
    .select({ hash: participation.writeupHash })
    .from(participation)
    .where(and(eq(participation.gameId, gameId), isNotNull(participation.writeupHash)))
    .for('update');
  return {
    attachmentIds,
    attachmentHashes: await attachmentFileHashes(tx, attachmentIds),
    testContainerIds,
    challengeIds: challengeList.map((row) => row.id),
    runtimeContainerIds: [...playerContainers, ...testContainers.map((row) => row.containerId)],
    writeupHashes: writeups.map((row) => row.hash!),
  };
}
