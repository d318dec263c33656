import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../lib/http-error';
import { avatarUrl } from '../../lib/blobs';
import { createTarStream, type TarEntry } from '../../lib/tar';
import { listChallenges } from '../challenges';
import { findGame } from '../games';
import { archiveTimestamp, listParticipationTeams } from '../participations';
import {
  captureFilePath,
  challengeCaptureDir,
  isCaptureFileName,
  isCaptureId,
  parseCaptureId,
  teamCaptureDir,
} from './capture';

/**
 * The monitor's view of the capture folders (reference §2.5, §5.10). The folders are the truth, as in
 * GZCTF's blob storage: a team or challenge "has captures" when its folder holds at least one finished
 * capture file, and folders left empty by deletions are removed (a recording in progress keeps its
 * folder, because its temporary file is in it).
 *
 * Ids that cannot name a folder (zero, negative) are treated like ids without captures, and file names
 * are checked against the capture pattern before any path is built, so nothing outside the capture
 * tree is ever read or removed.
 */

type Schemas = components['schemas'];
export type ChallengeTrafficModel = Schemas['ChallengeTrafficModel'];
export type TeamTrafficModel = Schemas['TeamTrafficModel'];
export type FileRecord = Schemas['FileRecord'];

const CAPTURE_NOT_FOUND = 'game.captureNotFound';
// Symbolic links are refused: the capture tree only ever holds files the recorder wrote.
const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW;

async function entriesOf(directory: string): Promise<fs.Dirent[]> {
  try {
    return await fs.promises.readdir(directory, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/** Names of the finished capture files in a folder (temporary files never match the pattern). */
async function captureNames(directory: string): Promise<string[]> {
  return (await entriesOf(directory))
    .filter((entry) => entry.isFile() && isCaptureFileName(entry.name))
    .map((entry) => entry.name);
}

/** The participations of a challenge that have at least one capture file, with their file counts. */
async function teamFolders(dataDir: string, challengeId: number): Promise<Array<{ id: number; count: number }>> {
  if (!isCaptureId(challengeId)) return [];
  const directory = challengeCaptureDir(dataDir, challengeId);
  const ids = (await entriesOf(directory))
    .filter((entry) => entry.isDirectory())
    .map((entry) => parseCaptureId(entry.name))
    .filter((id): id is number => id !== undefined);
  const folders = await Promise.all(
    ids.map(async (id) => ({ id, count: (await captureNames(path.join(directory, String(id)))).length })),
  );
  return folders.filter((folder) => folder.count > 0);
}

export async function listCaptureChallenges(db: Db, dataDir: string, gameId: number): Promise<ChallengeTrafficModel[]> {
  if (!(await findGame(db, gameId))) throw notFound('game.notFound');
  const challenges = (await listChallenges(db, gameId)).filter((challenge) => challenge.enableTrafficCapture);
  return Promise.all(
    challenges.map(async (challenge) => ({
      id: challenge.id,
      title: challenge.title,
      category: challenge.category,
      type: challenge.type,
      isEnabled: challenge.isEnabled,
      count: (await teamFolders(dataDir, challenge.id)).length,
    })),
  );
}

/** The teams with captures for a challenge, by team id; 404 when there are none (GZCTF's "no folder"). */
export async function listCaptureTeams(db: Db, dataDir: string, challengeId: number): Promise<TeamTrafficModel[]> {
  const folders = await teamFolders(dataDir, challengeId);
  if (folders.length === 0) throw notFound(CAPTURE_NOT_FOUND);
  const counts = new Map(folders.map((folder) => [folder.id, folder.count]));
  // A folder whose participation was deleted since has no team to show; it is left out.
  const rows = await listParticipationTeams(db, [...counts.keys()]);
  return rows
    .map(({ participation, team }) => ({
      id: participation.id,
      teamId: team.id,
      name: team.name,
      division: participation.division,
      avatar: avatarUrl(team.avatarHash),
      count: counts.get(participation.id) ?? 0,
    }))
    .sort((left, right) => left.teamId - right.teamId || left.id - right.id);
}

/** A team's capture files, newest first; none when the folder does not exist. */
export async function listCaptureFiles(
  dataDir: string,
  challengeId: number,
  participationId: number,
): Promise<FileRecord[]> {
  if (!isCaptureId(challengeId) || !isCaptureId(participationId)) return [];
  const directory = teamCaptureDir(dataDir, challengeId, participationId);
  const records = await Promise.all(
    (await captureNames(directory)).map(async (fileName) => {
      // A file deleted between the listing and here is simply not listed.
      const stat = await fs.promises.lstat(path.join(directory, fileName)).catch(() => undefined);
      return stat?.isFile() ? { fileName, size: stat.size, updateTime: Math.floor(stat.mtimeMs) } : undefined;
    }),
  );
  return records
    .filter((record): record is FileRecord => record !== undefined)
    .sort((left, right) => right.updateTime - left.updateTime || right.fileName.localeCompare(left.fileName));
}

async function openCapture(file: string): Promise<{ handle: FileHandle; size: number; mtime: Date } | undefined> {
  const handle = await fs.promises.open(file, READ_FLAGS).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stat = await handle.stat();
    if (stat.isFile()) return { handle, size: stat.size, mtime: stat.mtime };
  } catch {
    // Treated as missing below.
  }
  await handle.close().catch(() => undefined);
  return undefined;
}

/** One capture file for download; 404 when it is missing or the name is not a capture file name. */
export async function openCaptureFile(
  dataDir: string,
  challengeId: number,
  participationId: number,
  fileName: string,
): Promise<{ stream: Readable; size: number }> {
  if (!isCaptureId(challengeId) || !isCaptureId(participationId) || !isCaptureFileName(fileName)) {
    throw notFound(CAPTURE_NOT_FOUND);
  }
  const opened = await openCapture(captureFilePath(dataDir, challengeId, participationId, fileName));
  if (!opened) throw notFound(CAPTURE_NOT_FOUND);
  return { stream: opened.handle.createReadStream(), size: opened.size };
}

async function* archiveEntries(directory: string, names: string[]): AsyncGenerator<TarEntry> {
  for (const name of names) {
    // Each file is opened just before it is written, so one descriptor is open at a time; a file
    // deleted meanwhile is left out rather than failing the archive.
    const opened = await openCapture(path.join(directory, name));
    if (!opened) continue;
    let streaming = false;
    try {
      yield {
        name,
        size: opened.size,
        mtime: opened.mtime,
        open: () => {
          streaming = true;
          return opened.handle.createReadStream();
        },
      };
    } finally {
      // The stream closes its descriptor itself; an entry never opened (download aborted) is closed here.
      if (!streaming) await opened.handle.close().catch(() => undefined);
    }
  }
}

/** All capture files of a team as a tar stream named `Capture-{cid}-{pid}-{yyyyMMdd-HH.mm.ssZ}.tar`. */
export async function captureArchive(
  dataDir: string,
  challengeId: number,
  participationId: number,
  now = new Date(),
): Promise<{ fileName: string; stream: Readable }> {
  const files = await listCaptureFiles(dataDir, challengeId, participationId);
  if (files.length === 0) throw notFound(CAPTURE_NOT_FOUND);
  const directory = teamCaptureDir(dataDir, challengeId, participationId);
  // Oldest first, the order the connections happened in.
  const names = files.map((file) => file.fileName).reverse();
  return {
    fileName: `Capture-${challengeId}-${participationId}-${archiveTimestamp(now)}.tar`,
    stream: createTarStream(archiveEntries(directory, names)),
  };
}

/** Removes the team's and then the challenge's folder if they are empty; anything else keeps them. */
async function pruneFolders(dataDir: string, challengeId: number, participationId: number): Promise<void> {
  for (const directory of [
    teamCaptureDir(dataDir, challengeId, participationId),
    challengeCaptureDir(dataDir, challengeId),
  ]) {
    // ENOTEMPTY (other files, a recording in progress) and ENOENT both simply stop the pruning.
    const removed = await fs.promises.rmdir(directory).then(
      () => true,
      () => false,
    );
    if (!removed) return;
  }
}

export async function deleteCaptureFile(
  dataDir: string,
  challengeId: number,
  participationId: number,
  fileName: string,
): Promise<void> {
  if (!isCaptureId(challengeId) || !isCaptureId(participationId) || !isCaptureFileName(fileName)) {
    throw notFound(CAPTURE_NOT_FOUND);
  }
  const file = captureFilePath(dataDir, challengeId, participationId, fileName);
  const stat = await fs.promises.lstat(file).catch(() => undefined);
  if (!stat?.isFile()) throw notFound(CAPTURE_NOT_FOUND);
  try {
    await fs.promises.unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(CAPTURE_NOT_FOUND);
    throw error;
  }
  await pruneFolders(dataDir, challengeId, participationId);
}

/**
 * Removes deleted challenges' captures, folders and all (no list shows them any more). A recording
 * still running for one of them fails to save and is dropped; a failure here is only reported.
 */
export async function removeChallengeCaptures(dataDir: string, challengeIds: number[]): Promise<void> {
  for (const id of challengeIds.filter(isCaptureId)) {
    await fs.promises.rm(challengeCaptureDir(dataDir, id), { recursive: true, force: true });
  }
}

/** Deletes every finished capture of a team (recordings in progress stay); nothing to delete is fine. */
export async function deleteAllCaptureFiles(dataDir: string, challengeId: number, participationId: number) {
  if (!isCaptureId(challengeId) || !isCaptureId(participationId)) return;
  const directory = teamCaptureDir(dataDir, challengeId, participationId);
  try {
    const names = await captureNames(directory);
    await Promise.all(names.map((name) => fs.promises.rm(path.join(directory, name), { force: true })));
  } catch {
    // GZCTF answers 400 with the exception's text; ours is translated and names no server path.
    throw badRequest('game.captureDeleteFailed');
  }
  await pruneFolders(dataDir, challengeId, participationId);
}
