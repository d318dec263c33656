import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files } from '../../db/schema/files';

export type FileRow = typeof files.$inferSelect;

/** Inserts the file's row, or bumps the reference count of the row that has the same content. */
export async function upsertFileRow(db: Db, values: { hash: string; name: string; size: number }): Promise<FileRow> {
  const [row] = await db
    .insert(files)
    .values({ ...values, referenceCount: 1 })
    .onConflictDoUpdate({
      target: files.hash,
      // The newest upload names the file: that is the name the uploader just saw it under.
      set: { referenceCount: sql`${files.referenceCount} + 1`, name: values.name, size: values.size },
    })
    .returning();
  return row!;
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
