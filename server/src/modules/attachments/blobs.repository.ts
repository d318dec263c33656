import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files } from '../../db/schema/files';

export type FileRow = typeof files.$inferSelect;

/**
 * Inserts the file's row, or bumps the reference count of the row that has the same content. With
 * `rename` (an admin's upload to the assets) the newest upload names the file, the name the uploader
 * just saw it under; otherwise the name stays: a player sending a challenge's attachment as a writeup
 * would have renamed the attachment for everyone.
 */
export async function upsertFileRow(
  db: Db,
  values: { hash: string; name: string; size: number },
  rename: boolean,
): Promise<FileRow> {
  const [row] = await db
    .insert(files)
    .values({ ...values, referenceCount: 1 })
    .onConflictDoUpdate({
      target: files.hash,
      set: {
        referenceCount: sql`${files.referenceCount} + 1`,
        size: values.size,
        ...(rename ? { name: values.name } : {}),
      },
    })
    .returning();
  return row!;
}

/**
 * Holds the lock on one content hash until the transaction ends: storing and removing the same bytes
 * take it (blobs.service.ts). On PGlite, whose transactions already run one at a time, it is taken all
 * the same: the SQL works there and costs nothing.
 */
export async function lockFileHash(tx: Db, hash: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${hash}, 0))`);
}

/** Decrements the reference count; undefined when there is no such file. */
export async function decrementFileRow(db: Db, hash: string): Promise<number | undefined> {
  const [row] = await db
    .update(files)
    .set({ referenceCount: sql`greatest(${files.referenceCount} - 1, 0)` })
    .where(eq(files.hash, hash))
    .returning({ referenceCount: files.referenceCount });
  return row?.referenceCount;
}

/** Deletes the row once nothing references it; true when it was deleted. */
export async function deleteUnreferencedFileRow(db: Db, hash: string): Promise<boolean> {
  const rows = await db
    .delete(files)
    .where(and(eq(files.hash, hash), lte(files.referenceCount, 0)))
    .returning({ hash: files.hash });
  return rows.length > 0;
}

export async function findFileRow(db: Db, hash: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(files).where(eq(files.hash, hash));
  return row;
}

export async function listFileRows(db: Db, page: { count: number; skip: number }): Promise<FileRow[]> {
  return db.select().from(files).orderBy(desc(files.createdAt), files.hash).limit(page.count).offset(page.skip);
}
