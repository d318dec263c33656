import type { Readable } from 'node:stream';
import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { searchPattern } from '../../lib/paging';
import { fileUrl, openFile } from '../../lib/blobs';
import { createTarStream, type TarEntry } from '../../lib/tar';
import { releaseHashes, removeBlobs } from '../attachments';
import { requireGame } from '../games';
import { toTeamInfo } from '../teams';
import { clearWriteups, countWriteups, listWriteups, type WriteupRow } from './writeups.repository';

export type WriteupInfoModel = components['schemas']['WriteupInfoModel'];

export function toWriteupInfo(row: WriteupRow): WriteupInfoModel {
  return {
    id: row.participationId,
    // GZCTF leaves the members out of writeup listings.
    team: toTeamInfo(row.team),
    url: fileUrl(row.hash, row.fileName),
    uploadTimeUtc: row.uploadedAt.getTime(),
  };
}

export async function getWriteups(
  db: Db,
  gameId: number,
  query: { count?: number; skip?: number; search?: string } = {},
): Promise<{ rows: WriteupInfoModel[]; total: number }> {
  await requireGame(db, gameId);
  const pattern = searchPattern(query.search);
  const [rows, total] = await Promise.all([
    listWriteups(db, gameId, { count: query.count ?? 0, skip: query.skip ?? 0 }, pattern),
    countWriteups(db, gameId, pattern),
  ]);
  return { rows: rows.map(toWriteupInfo), total };
}

// Names travel into archives and Content-Disposition: no path separators or control characters.
// eslint-disable-next-line no-control-regex
const safeName = (name: string) => name.replace(/[\\/\u0000-\u001f\u007f]/g, '_').trim() || '_';

const pad = (value: number) => String(value).padStart(2, '0');

/** GZCTF's `yyyyMMdd-HH.mm.ssZ`, in UTC. */
export function archiveTimestamp(at: Date): string {
  return (
    `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}-` +
    `${pad(at.getUTCHours())}.${pad(at.getUTCMinutes())}.${pad(at.getUTCSeconds())}Z`
  );
}

/** Archive entry of one writeup: `{teamId}-{team name}.pdf`, unique because the team id is. */
export const writeupEntryName = (row: WriteupRow) => `${row.team.id}-${safeName(row.team.name)}.pdf`;

async function* writeupEntries(dataDir: string, rows: WriteupRow[]): AsyncGenerator<TarEntry> {
  for (const row of rows) {
    const file = await openFile(dataDir, row.hash);
    // A blob removed by hand is left out rather than failing the whole archive.
    if (!file) continue;
    let streaming = false;
    try {
      yield {
        name: writeupEntryName(row),
        size: file.size,
        mtime: row.uploadedAt,
        open: () => {
          streaming = true;
          return file.stream;
        },
      };
    } finally {
      // A stream read closes its file itself; one never read (the download was aborted) is closed here.
      if (!streaming) file.stream.destroy();
    }
  }
}

/** All writeups of a game as a tar stream, named `Writeups-{title}-{yyyyMMdd-HH.mm.ssZ}.tar`. */
export async function writeupArchive(
  db: Db,
  dataDir: string,
  gameId: number,
  now = new Date(),
): Promise<{ fileName: string; stream: Readable }> {
  const game = await requireGame(db, gameId);
  const rows = await listWriteups(db, gameId);
  return {
    fileName: `Writeups-${safeName(game.title)}-${archiveTimestamp(now)}.tar`,
    stream: createTarStream(writeupEntries(dataDir, rows)),
  };
}

/** Detaches and releases every writeup file of a game. */
export async function deleteWriteups(db: Database, dataDir: string, gameId: number): Promise<void> {
  await requireGame(db, gameId);
  const gone = await db.transaction(async (tx) => releaseHashes(tx, await clearWriteups(tx, gameId)));
  await removeBlobs(db, dataDir, gone);
}
