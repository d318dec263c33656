import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { badRequest } from '../../lib/http-error';
import { findFileRow, releaseFileRow, removeBlob, storeFile } from '../attachments';
import type { SessionUser } from '../../plugins/app/auth';
import { playContext } from './player.service';
import { lockWriteup, setWriteup } from './writeups.repository';

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

interface WriteupUpload {
  filename: string;
  mimetype: string;
  buffer: Buffer;
}

/**
 * A PDF (type and extension), 0 < size ≤ 20 MiB, before the deadline; replaces the previous one.
 * `readUpload` reads the request's file only once the game, the participation, the requirement and
 * the deadline allow one: up to 20 MiB are held in memory, which a stranger must not be able to cause.
 */
export async function submitWriteup(
  db: Database,
  dataDir: string,
  gameId: number,
  user: SessionUser,
  readUpload: () => Promise<WriteupUpload | undefined>,
): Promise<void> {
  const { game, participation } = await playContext(db, gameId, user, { allowEnded: true });
  if (!game.writeupRequired) throw badRequest('game.writeupNotRequired');
  if (Date.now() > game.writeupDeadline.getTime()) throw badRequest('game.writeupDeadlinePassed');
  const upload = await readUpload();
  // Again once read: an upload that ends after the deadline is late.
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
    // The participation before the file: deleting a team or a game locks it before releasing file
    // rows, so both take their locks in one order. Gone meanwhile, it takes nothing new.
    const current = await lockWriteup(tx, participation.id);
    if (!current) throw badRequest('game.notParticipated');
    const stored = await storeFile(tx, dataDir, { buffer: upload.buffer, name });
    await setWriteup(tx, participation.id, stored.hash);
    return current.hash && (await releaseFileRow(tx, current.hash)) === 'deleted' ? current.hash : undefined;
  });
  if (released) await removeBlob(db, dataDir, released);
}
