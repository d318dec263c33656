import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * The disk half of the content-addressed file store: where a blob lives, writing
 * and opening it, and the names and addresses derived from a hash. It knows nothing of the `files`
 * rows; the attachments module keeps those (`modules/attachments/blobs.service.ts`).
 */
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

/**
 * Writes a blob unless one of the same size is already there. Trusting that one is safe only under
 * the hash's lock (`storeFile` in modules/attachments/blobs.service.ts holds it), which keeps a
 * removal from unlinking it before the caller's row is committed.
 */
export async function writeBlob(dataDir: string, hash: string, buffer: Buffer): Promise<void> {
  const target = await blobTarget(dataDir, hash, buffer.length);
  if (target) await writeBeside(target, (temporary) => fs.promises.writeFile(temporary, buffer));
}

/**
 * Makes the file at `source` (of that hash and size) the blob, by renaming it, or removes it when the
 * blob is already there; under the hash's lock, as `writeBlob`. A source on another file system
 * (the store's folder mounted on a volume of its own) is copied beside the target and renamed.
 */
export async function moveIntoBlob(dataDir: string, hash: string, size: number, source: string): Promise<void> {
  const target = await blobTarget(dataDir, hash, size);
  if (!target) return fs.promises.rm(source, { force: true });
  try {
    await fs.promises.rename(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await writeBeside(target, (temporary) => fs.promises.copyFile(source, temporary));
    await fs.promises.rm(source, { force: true });
  }
}

/** Writes `target` beside it (`write` fills a temporary name) and renames, so a reader never sees half a file. */
async function writeBeside(target: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await write(temporary);
    await fs.promises.rename(temporary, target);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/** Where a blob of this size is to be written, its directory made; undefined when it is there already. */
async function blobTarget(dataDir: string, hash: string, size: number): Promise<string | undefined> {
  const target = blobPath(dataDir, hash);
  const existing = await fs.promises.stat(target).catch(() => undefined);
  if (existing?.size === size) return undefined;
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  return target;
}

/** Where uploads are received before they are stored: beside the blobs, so a rename moves them in. */
export function incomingDir(dataDir: string): string {
  return path.join(dataDir, 'files', 'incoming');
}

/** Unlinks a blob (nothing when it is already gone). */
export async function deleteBlob(dataDir: string, hash: string): Promise<void> {
  await fs.promises.rm(blobPath(dataDir, hash), { force: true });
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
