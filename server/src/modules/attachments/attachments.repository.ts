import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { attachments } from '../../db/schema/attachments';
import { files } from '../../db/schema/files';
import type { FileType } from '../../db/schema/enums';

export type AttachmentRow = typeof attachments.$inferSelect;

/** An attachment with what the admin views show of its file. */
export interface AttachmentView {
  id: number;
  type: FileType;
  remoteUrl: string | null;
  localFileHash: string | null;
  fileName: string | null;
  fileSize: number | null;
}

export async function findAttachments(db: Db, ids: number[]): Promise<Map<number, AttachmentView>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: attachments.id,
      type: attachments.type,
      remoteUrl: attachments.remoteUrl,
      localFileHash: attachments.localFileHash,
      fileName: files.name,
      fileSize: files.size,
    })
    .from(attachments)
    .leftJoin(files, eq(files.hash, attachments.localFileHash))
    .where(inArray(attachments.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

export async function insertAttachment(
  tx: Db,
  values: { type: FileType; localFileHash?: string | null; remoteUrl?: string | null },
): Promise<AttachmentRow> {
  const [row] = await tx.insert(attachments).values(values).returning();
  return row!;
}

/**
 * Takes one more reference to a stored file for an attachment; false when there is no such file. The
 * upload keeps its own reference, so the file outlives neither of them by accident.
 */
export async function acquireFileRow(tx: Db, hash: string): Promise<boolean> {
  const rows = await tx
    .update(files)
    .set({ referenceCount: sql`${files.referenceCount} + 1` })
    .where(eq(files.hash, hash))
    .returning({ hash: files.hash });
  return rows.length > 0;
}

export async function attachmentFileHashes(tx: Db, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ hash: attachments.localFileHash })
    .from(attachments)
    .where(and(inArray(attachments.id, ids), isNotNull(attachments.localFileHash)));
  return rows.map((row) => row.hash!);
}

export async function deleteAttachments(tx: Db, ids: number[]): Promise<void> {
  if (ids.length > 0) await tx.delete(attachments).where(inArray(attachments.id, ids));
}
