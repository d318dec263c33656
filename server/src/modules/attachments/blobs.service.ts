import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../../db/client';
import { cleanFileName, deleteBlob, moveIntoBlob, sha256, writeBlob } from '../../lib/blobs';
import {
  decrementFileRow,
  deleteUnreferencedFileRow,
  findFileRow,
  lockFileHash,
  upsertFileRow,
} from './blobs.repository';

/**
 * The record half of the content-addressed file store (the disk half is `lib/blobs.ts`): the `files` row counts how many things (uploads, avatars, logos, attachments…)
 * refer to a blob. Storing the same bytes again bumps the count, releasing lowers it, and the row and
 * the blob go away when it reaches zero.
 *
 * A blob is written before its row exists and removed only after its row is gone. Storing and
 * removing the same bytes take the hash's lock (`lockFileHash`) and hold it until their transaction ends:
 * otherwise a removal could find no row, a store then skip writing the blob that is still there and
 * commit its row, and the removal unlink the blob under that row. A blob whose row was rolled back
 * is an orphan that the next store of the same bytes adopts; a row never points at a missing blob
 * unless someone deletes files by hand.
 */
export interface StoredFile {
  hash: string;
  name: string;
  size: number;
}

/**
 * Runs `work` in the caller's transaction when `db` is one, else in one of its own: the hash's lock
 * lasts until the transaction ends, so outside one it would be let go before the row is committed.
 */
async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  if (db instanceof PgTransaction) return work(db);
  return (db as Database).transaction(work);
}

/**
 * Stores bytes and takes one reference to them. Works inside a transaction (`db` may be `tx`); if that
 * transaction rolls back, the blob stays behind as a harmless orphan. Removals of the same bytes
 * wait until that transaction has ended.
 */
export async function storeFile(
  db: Db,
  dataDir: string,
  file: { buffer: Buffer; name: string },
  options: { rename?: boolean } = {},
): Promise<StoredFile> {
  const hash = sha256(file.buffer);
  const stored = { hash, size: file.buffer.length, name: file.name };
  return storeBlob(db, stored, () => writeBlob(dataDir, hash, file.buffer), options);
}

/**
 * As `storeFile`, for a file already written to disk with its hash and size (`receiveUploads`): it
 * is moved into the store, or removed when the store holds those bytes already.
 */
export async function storeReceivedFile(
  db: Db,
  dataDir: string,
  file: { path: string; hash: string; size: number; name: string },
  options: { rename?: boolean } = {},
): Promise<StoredFile> {
  return storeBlob(db, file, () => moveIntoBlob(dataDir, file.hash, file.size, file.path), options);
}

/** Writes a blob (`write`) under its hash's lock and takes one reference to it. */
async function storeBlob(
  db: Db,
  file: { hash: string; size: number; name: string },
  write: () => Promise<void>,
  options: { rename?: boolean },
): Promise<StoredFile> {
  return inTransaction(db, async (tx) => {
    await lockFileHash(tx, file.hash);
    await write();
    const row = await upsertFileRow(
      tx,
      { hash: file.hash, name: cleanFileName(file.name), size: file.size },
      options.rename ?? false,
    );
    return { hash: row.hash, name: row.name, size: row.size };
  });
}

export type ReleaseResult = 'released' | 'deleted' | 'missing';

/**
 * Drops one reference to a file in the database only, inside the caller's transaction (the decrement
 * and the delete stand or fall together): 'deleted' means the row is gone and the caller
 * must call `removeBlob` after its transaction commits (so a rollback cannot leave a row without bytes).
 * Throws a foreign-key violation when the last reference goes but a row such as an attachment still
 * points at the file.
 */
export async function releaseFileRow(tx: Db, hash: string): Promise<ReleaseResult> {
  const remaining = await decrementFileRow(tx, hash);
  if (remaining === undefined) return 'missing';
  if (remaining > 0) return 'released';
  return (await deleteUnreferencedFileRow(tx, hash)) ? 'deleted' : 'released';
}

/**
 * Unlinks a blob unless its row came back meanwhile (someone stored the same bytes again); under the
 * hash's lock, so a store in progress either commits its row first or writes the blob afresh after.
 */
export async function removeBlob(db: Db, dataDir: string, hash: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    await lockFileHash(tx, hash);
    if (await findFileRow(tx, hash)) return;
    await deleteBlob(dataDir, hash);
  });
}

/** Drops one reference and, at zero, the row and the blob. Call it outside a transaction. */
export async function releaseFile(db: Database, dataDir: string, hash: string): Promise<ReleaseResult> {
  // The decrement and the delete stand or fall together.
  const result = await db.transaction((tx) => releaseFileRow(tx, hash));
  if (result === 'deleted') await removeBlob(db, dataDir, hash);
  return result;
}
