import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { badRequest } from '../../lib/http-error';
import { findFileRow, releaseFileRow, removeBlob, storeFile } from '../attachments';
import type { SessionUser } from '../../plugins/app/auth';
import { playContext } from './player.service';
import { replaceWriteup } from './writeups.repository';

export const MAX_WRITEUP_BYTES = 20 * 1024 * 1024;

/** The team's writeup (reference §2.5); allowed after the end, the deadline is the upload's limit. */
export async function getWriteup(
  db: Db,
  gameId: number,
  user: SessionUser,
): Promise<components['schemas']['BasicWriteupInfoModel']> {
  const { game, participation } = await playContext(db, gameId, user, { allowEnded: true });
  const file = participation.writeupHash ? await findFileRow(db, participation.writeupHash) : undefined;
  return {
    submitted: file !== undefined,
    name: file?.name ?? '#',
    fileSize: file?.size ?? 0,
    note: game.writeupNote,
  };
}

/** A PDF (type and extension), 0 < size ≤ 20 MiB, before the deadline; replaces the previous one. */
export async function submitWriteup(
  db: Database,
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
    const old = await replaceWriteup(tx, participation.id, stored.hash);
    return old && (await releaseFileRow(tx, old)) === 'deleted' ? old : undefined;
  });
  if (released) await removeBlob(db, dataDir, released);
}
