import { and, asc, count, eq, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { preparedQuery, type Db } from '../../db/client';
import { installation } from '../../db/schema/installation';
import { containers, gameInstances } from '../../db/schema/instances';
import { challengeRows } from '../challenges/read-models';
import { participationRows } from '../participations/read-models';
import { teamRows } from '../teams/read-models';

const challenge = challengeRows();
const participation = participationRows();
const team = teamRows();

export type InstanceRow = typeof gameInstances.$inferSelect;
export type ContainerRow = typeof containers.$inferSelect;
export type NewContainer = typeof containers.$inferInsert;

export async function installationId(db: Db): Promise<string> {
  const [row] = await db.select({ id: installation.id }).from(installation);
  if (!row) throw new Error('the installation row is missing: migrations did not run');
  return row.id;
}

const teamInstance = preparedQuery((db) =>
  db
    .select()
    .from(gameInstances)
    .where(
      and(
        eq(gameInstances.participationId, sql.placeholder('participationId')),
        eq(gameInstances.challengeId, sql.placeholder('challengeId')),
      ),
    )
    .prepare('find_team_instance'),
);

/** The team's instance of a challenge, if it has one (read without a lock). */
export async function findTeamInstance(
  db: Db,
  participationId: number,
  challengeId: number,
): Promise<InstanceRow | undefined> {
  const [row] = await teamInstance(db).execute({ participationId, challengeId });
  return row;
}

/** The team's instance of a challenge, created when missing; locked for the transaction. */
export async function lockOrCreateInstance(tx: Db, participationId: number, challengeId: number): Promise<InstanceRow> {
  await tx.insert(gameInstances).values({ participationId, challengeId }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(gameInstances)
    .where(and(eq(gameInstances.participationId, participationId), eq(gameInstances.challengeId, challengeId)))
    .for('update');
  return row!;
}

export async function setInstanceFlag(
  tx: Db,
  instanceId: number,
  flag: { flag: string } | { flagId: number },
): Promise<void> {
  await tx.update(gameInstances).set(flag).where(eq(gameInstances.id, instanceId));
}

/** Containers running now, players' and test ones (the metrics gauge). */
export async function countRunningContainers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(containers).where(eq(containers.status, 'Running'));
  return row?.n ?? 0;
}

export async function findContainer(db: Db, id: string): Promise<ContainerRow | undefined> {
  const [row] = await db.select().from(containers).where(eq(containers.id, id));
  return row;
}

export async function findInstanceContainer(db: Db, gameInstanceId: number): Promise<ContainerRow | undefined> {
  const [row] = await db.select().from(containers).where(eq(containers.gameInstanceId, gameInstanceId));
  return row;
}

/** A team's containers in a game, oldest first. */
export async function listTeamContainers(db: Db, participationId: number) {
  return db
    .select({ container: containers, challengeId: challenge.id, challengeTitle: challenge.title })
    .from(containers)
    .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
    .innerJoin(challenge, eq(challenge.id, gameInstances.challengeId))
    .where(eq(gameInstances.participationId, participationId))
    .orderBy(asc(containers.startedAt));
}

export async function insertContainer(tx: Db, values: NewContainer): Promise<ContainerRow> {
  const [row] = await tx.insert(containers).values(values).returning();
  return row!;
}

/** Records what the engine started; undefined when the row went meanwhile (destroyed while starting). */
export async function markRunning(
  db: Db,
  id: string,
  values: Pick<ContainerRow, 'containerId' | 'ip' | 'port' | 'publicIp' | 'publicPort' | 'startedAt' | 'expectStopAt'>,
): Promise<ContainerRow | undefined> {
  const [row] = await db
    .update(containers)
    .set({ ...values, status: 'Running' })
    .where(and(eq(containers.id, id), eq(containers.status, 'Pending')))
    .returning();
  return row;
}

/** Deletes rows, returning those this call removed: a delete is how concurrent destroyers agree who did it. */
export async function deleteContainers(db: Db, ids: string[]): Promise<ContainerRow[]> {
  if (ids.length === 0) return [];
  return db.delete(containers).where(inArray(containers.id, ids)).returning();
}

/**
 * undefined when the row is no longer a running container: a teammate's destroy or the sweep deleted
 * it, or the sweep has claimed it for destruction (the row is re-checked once the claim commits).
 */
export async function setExpectStopAt(tx: Db, id: string, at: Date): Promise<ContainerRow | undefined> {
  const [row] = await tx
    .update(containers)
    .set({ expectStopAt: at })
    .where(and(eq(containers.id, id), eq(containers.status, 'Running')))
    .returning();
  return row;
}

export async function setLastContainerOperation(tx: Db, gameInstanceId: number, at: Date | null): Promise<void> {
  await tx.update(gameInstances).set({ lastContainerOperation: at }).where(eq(gameInstances.id, gameInstanceId));
}

/** Puts back `to` only while the operation time is still `from`: a later destroy's time stays. */
export async function restoreLastContainerOperation(
  db: Db,
  gameInstanceId: number,
  from: Date,
  to: Date | null,
): Promise<void> {
  await db
    .update(gameInstances)
    .set({ lastContainerOperation: to })
    .where(and(eq(gameInstances.id, gameInstanceId), eq(gameInstances.lastContainerOperation, from)));
}

// Destroyed marks a row the sweep has claimed; it stays until the engine's container is gone, and
// a claim whose destroy failed (or whose process stopped) is taken up again by the next sweep.
const expiring = (now: Date) =>
  and(inArray(containers.status, ['Running', 'Destroyed']), lt(containers.expectStopAt, now));

/** Containers past their expected stop, player and test ones alike, including claims left unfinished. */
export async function listExpired(db: Db, now: Date, limit: number): Promise<ContainerRow[]> {
  return db.select().from(containers).where(expiring(now)).orderBy(asc(containers.expectStopAt)).limit(limit);
}

/**
 * Claims an expired container for destruction: undefined when it is no longer expired (extended
 * after it was listed) or already gone. Once claimed, an extension finds it not running.
 */
export async function claimExpired(db: Db, id: string, now: Date): Promise<ContainerRow | undefined> {
  const [row] = await db
    .update(containers)
    .set({ status: 'Destroyed' })
    .where(and(eq(containers.id, id), expiring(now)))
    .returning();
  return row;
}

/**
 * Renews the start time of Pending rows whose start is still in progress, returning the ids still
 * Pending; a row missing from the answer was destroyed, evicted or swept meanwhile.
 */
export async function renewPending(db: Db, ids: string[], at: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(containers)
    .set({ startedAt: at })
    .where(and(inArray(containers.id, ids), eq(containers.status, 'Pending')))
    .returning({ id: containers.id });
  return rows.map((row) => row.id);
}

export async function listAllContainers(db: Db): Promise<ContainerRow[]> {
  return db.select().from(containers);
}

export async function existingContainerIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: containers.id }).from(containers).where(inArray(containers.id, ids));
  return new Set(rows.map((row) => row.id));
}

export interface AdminFilter {
  teamId?: number;
  challengeId?: number;
  count?: number;
  skip?: number;
}

/** Containers of game instances with their team and challenge, by start time (admin list). */
export async function listGameContainers(db: Db, filter: AdminFilter) {
  const conditions: SQL[] = [isNotNull(containers.gameInstanceId)];
  if (filter.teamId !== undefined) conditions.push(eq(participation.teamId, filter.teamId));
  if (filter.challengeId !== undefined) conditions.push(eq(gameInstances.challengeId, filter.challengeId));
  const where = and(...conditions);
  const base = () =>
    db
      .select({
        container: containers,
        team: { id: team.id, name: team.name, avatarHash: team.avatarHash },
        challenge: { id: challenge.id, title: challenge.title, category: challenge.category },
      })
      .from(containers)
      .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
      .innerJoin(participation, eq(participation.id, gameInstances.participationId))
      .innerJoin(team, eq(team.id, participation.teamId))
      .innerJoin(challenge, eq(challenge.id, gameInstances.challengeId))
      .where(where)
      .orderBy(asc(containers.startedAt), asc(containers.id));
  const rows = filter.count
    ? await base()
        .limit(filter.count)
        .offset(filter.skip ?? 0)
    : await base().offset(filter.skip ?? 0);
  const [total] = await db
    .select({ n: count() })
    .from(containers)
    .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
    .innerJoin(participation, eq(participation.id, gameInstances.participationId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** What the proxy needs of a container: where to dial, and for a player's one what a capture records. */
export async function findProxyTarget(db: Db, id: string) {
  const [row] = await db
    .select({
      container: containers,
      instance: { participationId: gameInstances.participationId, flag: gameInstances.flag },
      challenge: { id: challenge.id, title: challenge.title, capture: challenge.enableTrafficCapture },
      team: { id: team.id, name: team.name },
    })
    .from(containers)
    .leftJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
    .leftJoin(participation, eq(participation.id, gameInstances.participationId))
    .leftJoin(team, eq(team.id, participation.teamId))
    .leftJoin(challenge, eq(challenge.id, gameInstances.challengeId))
    .where(eq(containers.id, id));
  return row;
}

/** The test container row of a challenge, if any. */
export async function findTestContainer(db: Db, challengeId: number): Promise<ContainerRow | undefined> {
  const [row] = await db
    .select({ container: containers })
    .from(challenge)
    .innerJoin(containers, eq(containers.id, challenge.testContainerId))
    .where(and(eq(challenge.id, challengeId), isNull(containers.gameInstanceId)));
  return row?.container;
}

/**
 * Deletes rows whose start stopped renewing them (the platform instance starting them went away),
 * in one statement, so a renewal that commits first keeps its row.
 */
export async function deleteStalePending(db: Db, before: Date): Promise<ContainerRow[]> {
  return db
    .delete(containers)
    .where(and(eq(containers.status, 'Pending'), lt(containers.startedAt, before)))
    .returning();
}

/**
 * Engine ids of the players' containers of one game, challenge or team: what a deletion that
 * cascades over their rows leaves running on the engine (read before the delete, stopped after it).
 */
export async function playerContainerIds(
  db: Db,
  of: { gameId: number } | { challengeId: number } | { teamId: number },
): Promise<string[]> {
  const participation = participationRows('owner_participation');
  const rows = await db
    .select({ containerId: containers.containerId })
    .from(containers)
    .innerJoin(gameInstances, eq(gameInstances.id, containers.gameInstanceId))
    .innerJoin(participation, eq(participation.id, gameInstances.participationId))
    .where(
      'gameId' in of
        ? eq(participation.gameId, of.gameId)
        : 'challengeId' in of
          ? eq(gameInstances.challengeId, of.challengeId)
          : eq(participation.teamId, of.teamId),
    );
  return rows.map((row) => row.containerId);
}
