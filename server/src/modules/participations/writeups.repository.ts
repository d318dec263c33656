import { and, count, desc, eq, ilike, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { participations } from '../../db/schema/participations';
import type { PageRequest as ListPage } from '../../lib/paging';
import { fileRows } from '../attachments/read-models';
import { teamRows } from '../teams/read-models';

const team = teamRows();
const file = fileRows();

export interface WriteupRow {
  participationId: number;
  uploadedAt: Date;
  hash: string;
  fileName: string;
  team: { id: number; name: string; bio: string | null; avatarHash: string | null; locked: boolean };
}

function writeupConditions(gameId: number, pattern: string | undefined) {
  return and(eq(participations.gameId, gameId), pattern ? ilike(team.name, pattern) : undefined);
}

/**
 * The writeups of a game, newest upload first; a page of them (`count` 0 = all) of the teams whose
 * name matches `pattern` (`searchPattern`) when given.
 */
export async function listWriteups(
  db: Db,
  gameId: number,
  page: ListPage = { count: 0, skip: 0 },
  pattern?: string,
): Promise<WriteupRow[]> {
  const query = db
    .select({
      participationId: participations.id,
      writeupUploadedAt: participations.writeupUploadedAt,
      fileCreatedAt: file.createdAt,
      hash: file.hash,
      fileName: file.name,
      team: { id: team.id, name: team.name, bio: team.bio, avatarHash: team.avatarHash, locked: team.locked },
    })
    .from(participations)
    .innerJoin(team, eq(team.id, participations.teamId))
    .innerJoin(file, eq(file.hash, participations.writeupHash))
    .where(writeupConditions(gameId, pattern))
    .orderBy(desc(sql`coalesce(${participations.writeupUploadedAt}, ${file.createdAt})`), desc(participations.id));
  const rows = await (page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip));
  // A writeup stored without an upload time (should not happen) counts from its file's creation.
  return rows.map(({ writeupUploadedAt, fileCreatedAt, ...row }) => ({
    ...row,
    uploadedAt: writeupUploadedAt ?? fileCreatedAt,
  }));
}

export async function countWriteups(db: Db, gameId: number, pattern?: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(participations)
    .innerJoin(team, eq(team.id, participations.teamId))
    .innerJoin(file, eq(file.hash, participations.writeupHash))
    .where(writeupConditions(gameId, pattern));
  return row?.value ?? 0;
}

/** Detaches every writeup of a game; the hashes they held (one per participation). */
export async function clearWriteups(tx: Db, gameId: number): Promise<string[]> {
  const previous = await tx
    .select({ id: participations.id, hash: participations.writeupHash })
    .from(participations)
    .where(and(eq(participations.gameId, gameId), isNotNull(participations.writeupHash)))
    .for('update');
  if (previous.length === 0) return [];
  await tx
    .update(participations)
    .set({ writeupHash: null, writeupUploadedAt: null })
    .where(and(eq(participations.gameId, gameId), isNotNull(participations.writeupHash)));
  return previous.map((row) => row.hash!);
}

/**
 * Locks a participation for a change of its writeup: the hash it holds (null for none), or undefined
 * when the row is gone (its team or game was deleted meanwhile). Deleting a team or a game locks the
 * same rows before reading their hashes, so the two never release one hash twice.
 */
export async function lockWriteup(tx: Db, participationId: number): Promise<{ hash: string | null } | undefined> {
  const [row] = await tx
    .select({ hash: participations.writeupHash })
    .from(participations)
    .where(eq(participations.id, participationId))
    .for('update');
  return row;
}

/** Sets a team's writeup, on a row `lockWriteup` locked. */
export async function setWriteup(tx: Db, participationId: number, hash: string): Promise<void> {
  await tx
    .update(participations)
    .set({ writeupHash: hash, writeupUploadedAt: new Date() })
    .where(eq(participations.id, participationId));
}
