import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Db } from '../db/client';
import { decrementFileRow, deleteUnreferencedFileRow, findFileRow, upsertFileRow } from './storage.repository';

/**
 * Content-addressed file store (GZCTF's LocalFile + blob storage, reference §5.17).
 *
 * A file is named by the SHA-256 of its bytes and kept once under
 * `DATA_DIR/files/uploads/{hash[0:2]}/{hash[2:4]}/{hash}`; the `files` row counts how many things
 * (uploads, avatars, logos, attachments…) refer to it. Storing the same bytes again bumps the count,
 * releasing lowers it, and the row and the blob go away when it reaches zero.
 *
 * Ordering keeps the two halves consistent without a lock: a blob is written before its row exists
 * and removed only after its row is gone (re-checked just before unlinking). A blob whose row was
 * rolled back is an orphan that the next store of the same bytes adopts; a row never points at a
 * missing blob unless someone deletes files by hand.
 */
export interface StoredFile {
  hash: string;
  name: string;
  size: number;
}

export const HASH_PATTERN = /^[0-9a-f]{64}$/;

export function blobPath(dataDir: string, hash: string): string {
  if (!HASH_PATTERN.test(hash)) throw new Error(`not a file hash: ${hash}`);
  return path.join(dataDir, 'files', 'uploads', hash.slice(0, 2), hash.slice(2, 4), hash);
}

/** The public address of a stored file; the name only picks the Content-Type (reference §2.3). */
export function fileUrl(hash: string, name: string): string {
  return `/assets/${hash}/${encodeURIComponent(name)}`;
}

/** Where a user's or a team's avatar is served; null without one. The name only makes it an image. */
export function avatarUrl(hash: string | null): string | null {
  return hash ? fileUrl(hash, 'avatar') : null;
}

export function sha256(buffer: Buffer): string {
  return createHash('sha256').update(buffer).digest('hex');
}

/** Upload names are display names: no directories, no control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined, fallback = 'file'): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // Control characters in a stored name would break headers and archives, so they are stripped.
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return [...(cleaned || fallback)].slice(0, 255).join('');
}

async function writeBlob(dataDir: string, hash: string, buffer: Buffer): Promise<void> {
  const target = blobPath(dataDir, hash);
  const existing = await fs.promises.stat(target).catch(() => undefined);
  if (existing?.size === buffer.length) return;
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  // Write beside the target and rename, so a reader never sees half a file.
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.promises.writeFile(temporary, buffer);
    await fs.promises.rename(temporary, target);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Stores bytes and takes one reference to them. Works inside a transaction (`db` may be `tx`); if that
 * transaction rolls back, the blob stays behind as a harmless orphan.
 */
export async function storeFile(db: Db, dataDir: string, file: { buffer: Buffer; name: string }): Promise<StoredFile> {
  const hash = sha256(file.buffer);
  await writeBlob(dataDir, hash, file.buffer);
  const row = await upsertFileRow(db, { hash, name: cleanFileName(file.name), size: file.buffer.length });
  return { hash: row.hash, name: row.name, size: row.size };
}

export type ReleaseResult = 'released' | 'deleted' | 'missing';

/**
 * Drops one reference to a file in the database only: 'deleted' means the row is gone and the caller
 * must call `removeBlob` after its transaction commits (so a rollback cannot leave a row without bytes).
 * Throws a foreign-key violation when the last reference goes but a row such as an attachment still
 * points at the file.
 */
export async function releaseFileRow(db: Db, hash: string): Promise<ReleaseResult> {
  // A savepoint when `db` is already a transaction: the decrement and the delete stand or fall together.
  return db.transaction(async (tx) => {
    const remaining = await decrementFileRow(tx, hash);
    if (remaining === undefined) return 'missing';
    if (remaining > 0) return 'released';
    return (await deleteUnreferencedFileRow(tx, hash)) ? 'deleted' : 'released';
  });
}

/** Unlinks a blob unless its row came back meanwhile (someone stored the same bytes again). */
export async function removeBlob(db: Db, dataDir: string, hash: string): Promise<void> {
  if (await findFileRow(db, hash)) return;
  await fs.promises.rm(blobPath(dataDir, hash), { force: true });
}

/** Drops one reference and, at zero, the row and the blob. Call it outside a transaction. */
export async function releaseFile(db: Db, dataDir: string, hash: string): Promise<ReleaseResult> {
  const result = await releaseFileRow(db, hash);
  if (result === 'deleted') await removeBlob(db, dataDir, hash);
  return result;
}

export interface OpenedFile {
  stream: Readable;
  size: number;
  modifiedAt: Date;
  /** The first bytes (up to 16), for recognising the type of files stored without an extension. */
  head: Buffer;
}

/** Opens a stored blob for streaming, or undefined when there is none. */
export async function openFile(dataDir: string, hash: string): Promise<OpenedFile | undefined> {
  if (!HASH_PATTERN.test(hash)) return undefined;
  const file = blobPath(dataDir, hash);
  const handle = await fs.promises.open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return undefined;
    }
    const head = Buffer.alloc(Math.min(16, stat.size));
    if (head.length > 0) await handle.read(head, 0, head.length, 0);
    return { stream: handle.createReadStream({ start: 0 }), size: stat.size, modifiedAt: stat.mtime, head };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Whether a blob exists on disk (tests and health checks). */
export function blobExists(dataDir: string, hash: string): boolean {
  return HASH_PATTERN.test(hash) && fs.existsSync(blobPath(dataDir, hash));
}
