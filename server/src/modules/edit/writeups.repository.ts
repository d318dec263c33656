import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files, participations, teams } from '../../db/schema';

export interface WriteupRow {
  participationId: number;
  uploadedAt: Date;
  hash: string;
  fileName: string;
  team: { id: number; name: string; bio: string | null; avatarHash: string | null; locked: boolean };
}

/** The writeups of a game, newest upload first. */
export async function listWriteups(db: Db, gameId: number): Promise<WriteupRow[]> {
  const rows = await db
    .select({
      participationId: participations.id,
      writeupUploadedAt: participations.writeupUploadedAt,
      fileCreatedAt: files.createdAt,
      hash: files.hash,
      fileName: files.name,
      team: { id: teams.id, name: teams.name, bio: teams.bio, avatarHash: teams.avatarHash, locked: teams.locked },
    })
    .from(participations)
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .innerJoin(files, eq(files.hash, participations.writeupHash))
    .where(eq(participations.gameId, gameId))
    .orderBy(desc(sql`coalesce(${participations.writeupUploadedAt}, ${files.createdAt})`), desc(participations.id));
  // A writeup stored without an upload time (should not happen) counts from its file's creation.
  return rows.map(({ writeupUploadedAt, fileCreatedAt, ...row }) => ({
    ...row,
    uploadedAt: writeupUploadedAt ?? fileCreatedAt,
  }));
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
