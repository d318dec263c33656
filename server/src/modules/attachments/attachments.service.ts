import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { badRequest } from '../../lib/http-error';
import { fileUrl, HASH_PATTERN } from '../../lib/blobs';
import { rejectNul } from '../../lib/text';
import { releaseFileRow, removeBlob } from './blobs.service';
import { acquireFileRow, deleteAttachments, insertAttachment, type AttachmentView } from './attachments.repository';

type Schemas = components['schemas'];
export type AttachmentModel = Schemas['Attachment'];

/** What an attachment request asks for, checked but not yet stored. */
export type AttachmentSpec = { type: 'None' } | { type: 'Local'; hash: string } | { type: 'Remote'; url: string };

const MAX_URL_LENGTH = 2048;

/**
 * Checks the attachment part of AttachmentCreateModel / FlagCreateModel. A local file is named by its
 * hash (upload it through `POST /api/assets` first); a remote one must be an http(s) URL, so no
 * `javascript:` or `file:` link ever reaches a player's download button.
 */
export function parseAttachment(model: {
  attachmentType?: Schemas['FileType'];
  fileHash?: string | null;
  remoteUrl?: string | null;
}): AttachmentSpec {
  switch (model.attachmentType ?? 'None') {
    case 'None':
      return { type: 'None' };
    case 'Local': {
      const hash = model.fileHash?.trim().toLowerCase() ?? '';
      if (!HASH_PATTERN.test(hash)) throw badRequest('edit.attachments.invalidHash');
      return { type: 'Local', hash };
    }
    case 'Remote': {
      const url = model.remoteUrl?.trim() ?? '';
      rejectNul(url);
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || url.length > MAX_URL_LENGTH) {
        throw badRequest('edit.attachments.invalidUrl');
      }
      return { type: 'Remote', url };
    }
  }
}

/** Stores an attachment (taking a reference to its local file); undefined for `None`. */
export async function createAttachment(tx: Db, spec: AttachmentSpec): Promise<number | undefined> {
  if (spec.type === 'None') return undefined;
  if (spec.type === 'Local') {
    if (!(await acquireFileRow(tx, spec.hash))) throw badRequest('edit.attachments.fileNotFound');
    return (await insertAttachment(tx, { type: 'Local', localFileHash: spec.hash })).id;
  }
  return (await insertAttachment(tx, { type: 'Remote', remoteUrl: spec.url })).id;
}

/**
 * Deletes attachment rows and drops the references they held; returns the hashes whose last reference
 * went, for `removeBlobs` once the transaction has committed.
 */
export async function dropAttachments(tx: Db, ids: number[], hashes: string[]): Promise<string[]> {
  await deleteAttachments(tx, ids);
  return releaseHashes(tx, hashes);
}

/** Drops one reference per entry (a hash may repeat); the hashes whose row went. */
export async function releaseHashes(tx: Db, hashes: string[]): Promise<string[]> {
  const gone: string[] = [];
  for (const hash of hashes) {
    if ((await releaseFileRow(tx, hash)) === 'deleted') gone.push(hash);
  }
  return gone;
}

/** Unlinks blobs after the transaction that released them committed. */
export async function removeBlobs(db: Db, dataDir: string, hashes: string[]): Promise<void> {
  for (const hash of new Set(hashes)) await removeBlob(db, dataDir, hash);
}

/**
 * Drops one reference per hash in a transaction of its own and unlinks what went, for a caller whose
 * change that held the references is already committed.
 */
export async function releaseFiles(db: Database, dataDir: string, hashes: string[]): Promise<void> {
  const gone = await db.transaction((tx) => releaseHashes(tx, hashes));
  await removeBlobs(db, dataDir, gone);
}

export function toAttachmentModel(view: AttachmentView | undefined): AttachmentModel | null {
  if (!view) return null;
  const local = view.type === 'Local' && view.localFileHash !== null;
  return {
    id: view.id,
    type: view.type,
    url: local ? fileUrl(view.localFileHash!, view.fileName ?? 'attachment') : view.remoteUrl,
    fileSize: local ? view.fileSize : null,
  };
}
