import sharp from 'sharp';
import type { Database } from '../../db/client';
import { isForeignKeyViolation } from '../../db/errors';
import { assetType, attachmentDisposition, sniffImageType } from '../../lib/content-types';
import { badRequest } from '../../lib/http-error';
import { cleanFileName, openFile, type OpenedFile } from '../../lib/blobs';
import type { SpooledFile } from '../../lib/uploads';
import { releaseFile, storeReceivedFile, type StoredFile } from '../attachments';

/** Browsers and proxies may keep assets for 7 days: a hash always names the same bytes. */
export const ASSET_CACHE_CONTROL = 'public, max-age=604800';

/** The policy of a file sent as an attachment: a unique origin, nothing loaded, nothing run. */
export const ATTACHMENT_POLICY = "sandbox; default-src 'none'";

/** GZCTF's ETag for an asset: eight hex digits of the hash, quoted. */
export const assetEtag = (hash: string) => `"${hash.slice(8, 16)}"`;

/**
 * Stores uploaded files (received to disk: `receiveUploads`) in one transaction, so a failure keeps
 * none of them; `rename` (the `filename` query) names every file, otherwise each keeps the name it was
 * uploaded with.
 */
export async function uploadAssets(
  db: Database,
  dataDir: string,
  files: SpooledFile[],
  rename: string | undefined,
): Promise<StoredFile[]> {
  const name = rename?.trim() ? cleanFileName(rename) : undefined;
  // Stored in the order of their hashes, each taking its hash's lock: two uploads of the same files
  // in other orders would otherwise wait for each other's locks. Answered in the order sent.
  const order = files.map((file, index) => ({ file, index }));
  order.sort((a, b) => (a.file.hash < b.file.hash ? -1 : a.file.hash > b.file.hash ? 1 : a.index - b.index));
  return db.transaction(async (tx) => {
    const stored: StoredFile[] = new Array(files.length);
    for (const { file, index } of order) {
      stored[index] = await storeReceivedFile(
        tx,
        dataDir,
        { ...file, name: name ?? cleanFileName(file.filename) },
        { rename: true },
      );
    }
    return stored;
  });
}

/** Drops one reference; false when there is no such file. A file something still points at stays. */
export async function deleteAsset(db: Database, dataDir: string, hash: string): Promise<boolean> {
  try {
    return (await releaseFile(db, dataDir, hash)) !== 'missing';
  } catch (error) {
    if (isForeignKeyViolation(error)) throw badRequest('assets.inUse');
    throw error;
  }
}

export interface AssetResponse {
  file: OpenedFile;
  headers: Record<string, string>;
}

/**
 * Opens an asset with the headers it is served with. The type comes from the requested name (never
 * checked against the stored one); active types are defused, and all but pictures made
 * attachments, in `assetType`.
 */
export async function openAsset(dataDir: string, hash: string, fileName: string): Promise<AssetResponse | undefined> {
  const file = await openFile(dataDir, hash);
  if (!file) return undefined;
  let { contentType, attachment } = assetType(fileName);
  if (contentType === 'application/octet-stream') {
    const image = sniffImageType(file.head);
    if (image) [contentType, attachment] = [image, false];
  }
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-length': String(file.size),
    'cache-control': ASSET_CACHE_CONTROL,
    etag: assetEtag(hash),
    'last-modified': file.modifiedAt.toUTCString(),
    'x-content-type-options': 'nosniff',
  };
  if (attachment) {
    headers['content-disposition'] = attachmentDisposition(fileName);
    // Should a browser show it after all (an old one, a viewer plug-in), it is a page with no
    // origin of ours and nothing allowed to load or run.
    headers['content-security-policy'] = ATTACHMENT_POLICY;
  }
  return { file, headers };
}

/** Whether an `If-None-Match` header names this asset's ETag (or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((value) => {
    const tag = value.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

// A flag on a rounded square in the default theme colour: the favicon until an admin uploads a logo.
const DEFAULT_FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
<rect width="256" height="256" rx="56" fill="#0aa39d"/>
<rect x="70" y="48" width="16" height="168" rx="8" fill="#fff"/>
<path d="M86 56h104l-24 40 24 40H86z" fill="#fff"/>
</svg>`;

let defaultFavicon: Promise<Buffer> | undefined;

export function builtInFavicon(): Promise<Buffer> {
  defaultFavicon ??= sharp(Buffer.from(DEFAULT_FAVICON_SVG)).webp().toBuffer();
  return defaultFavicon;
}
