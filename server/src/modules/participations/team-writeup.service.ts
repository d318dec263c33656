import { eq } from 'drizzle-orm';
import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { files } from '../../db/schema/files';
import { participations } from '../../db/schema/participations';
import { badRequest } from '../../lib/http-error';
import { releaseFileRow, removeBlob, storeFile } from '../../lib/storage';
import type { SessionUser } from '../../plugins/app/auth';
import { playContext } from './game.service';

export const MAX_WRITEUP_BYTES = 20 * 1024 * 1024;

/** The team's writeup (reference §2.5); allowed after the end, the deadline is the upload's limit. */
export async function getWriteup(
  db: Db,
  gameId: number,
  user: SessionUser,
): Promise<components['schemas']['BasicWriteupInfoModel']> {
  const { game, participation } = await playContext(db, gameId, user, { allowEnded: true });
  const [file] = participation.writeupHash
    ? await db.select().from(files).where(eq(files.hash, participation.writeupHash))
    : [];
  return {
    submitted: file !== undefined,
    name: file?.name ?? '#',
    fileSize: file?.size ?? 0,
    note: game.writeupNote,
  };
}

/** A PDF (type and extension), 0 < size ≤ 20 MiB, before the deadline; replaces the previous one. */
export async function submitWriteup(
  db: Db,
  dataDir: string,
  gameId: number,
  user: SessionUser,
  upload: { filename: string; mimetype: string; buffer: Buffer } | undefined,
): Promise<void> {
  const { game, participation } = await playContext(db, gameId, user, { allowEnded: true });
  if (!game.writeupRequired) throw badRequest('game.writeupNotRequired');
  if (Date.now() > game.writeupDeadline.getTime()) throw badRequest('game.writeupDeadlinePassed');
  if (
    !upload ||
    upload.buffer.length === 0 ||
    upload.buffer.length > MAX_WRITEUP_BYTES ||
    upload.mimetype !== 'application/pdf' ||
    !upload.filename.toLowerCase().endsWith('.pdf')
  ) {
    throw badRequest('game.writeupInvalid');
  }
  const name = `Writeup-${game.id}-${participation.teamId}-${Date.now()}.pdf`;
  const released = await db.transaction(async (tx) => {
    const stored = await storeFile(tx, dataDir, { buffer: upload.buffer, name });
    const [old] = await tx
      .select({ hash: participations.writeupHash })
      .from(participations)
      .where(eq(participations.id, participation.id))
      .for('update');
    await tx
      .update(participations)
      .set({ writeupHash: stored.hash, writeupUploadedAt: new Date() })
      .where(eq(participations.id, participation.id));
    return old?.hash && (await releaseFileRow(tx, old.hash)) === 'deleted' ? old.hash : undefined;
  });
  if (released) await removeBlob(db, dataDir, released);
}
