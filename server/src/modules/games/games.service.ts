import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { DEFAULT_BLOOD_BONUS, isValidBloodBonus } from '../../lib/blood-bonus';
import { generateGameKeys } from '../../lib/game-keys';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import { toWebp } from '../../lib/images';
import type { SortRequest } from '../../lib/sorting';
import { fileUrl } from '../../lib/blobs';
import { releaseFileRow, storeFile } from '../attachments';
import { dropAttachments, releaseHashes, removeBlobs } from '../attachments';
import { deleteTestContainers } from '../instances';
import { bus } from '../../lib/bus';
import { rejectNul } from '../../lib/text';
import {
  countGames,
  deleteGameRow,
  findGame,
  gameLeftovers,
  insertGame,
  listGames,
  lockGame,
  updateGame,
  type GameRow,
  type GameSettings,
  type GameSort,
} from './games.repository';

type Schemas = components['schemas'];
export type GameInfoModel = Schemas['GameInfoModel'];
export type GameInfoPage = Schemas['ArrayResponseOfGameInfoModel'];

/** Page size of the admin game list when the client names none (the contract allows 0–100). */
export const DEFAULT_GAME_PAGE = 100;

// Instants must survive the round trip through a JS Date and PostgreSQL: from the epoch to year 9999.
const MAX_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const MAX_DIVISIONS = 100;
const MAX_DIVISION_LENGTH = 64;

export const POSTER_NAME = 'poster';

export function toGameInfo(game: GameRow): GameInfoModel {
  return {
    id: game.id,
    title: game.title,
    hidden: game.hidden,
    summary: game.summary,
    content: game.content,
    acceptWithoutReview: game.acceptWithoutReview,
    writeupRequired: game.writeupRequired,
    inviteCode: game.inviteCode,
    divisions: game.divisions,
    teamMemberCountLimit: game.teamMemberCountLimit,
    containerCountLimit: game.containerCountLimit,
    poster: game.posterHash ? fileUrl(game.posterHash, POSTER_NAME) : null,
    publicKey: game.publicKey,
    practiceMode: game.practiceMode,
    start: game.startAt.getTime(),
    end: game.endAt.getTime(),
    writeupDeadline: game.writeupDeadline.getTime(),
    writeupNote: game.writeupNote,
    bloodBonus: game.bloodBonus,
  };
}

function instant(value: number, field: string): Date {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_INSTANT) {
    throw badRequest('edit.games.invalidTime', { field });
  }
  return new Date(value);
}

function cleanDivisions(divisions: string[] | null | undefined): string[] | null {
  if (divisions === null || divisions === undefined) return null;
  if (divisions.length > MAX_DIVISIONS) throw badRequest('edit.games.tooManyDivisions', { limit: MAX_DIVISIONS });
  const seen = new Set<string>();
  return divisions.map((raw) => {
    const division = raw.trim();
    if (division === '') throw badRequest('edit.games.emptyDivision');
    if ([...division].length > MAX_DIVISION_LENGTH) {
      throw badRequest('edit.games.divisionTooLong', { division, limit: MAX_DIVISION_LENGTH });
    }
    if (seen.has(division)) throw badRequest('edit.games.duplicateDivision', { division });
    seen.add(division);
    return division;
  });
}

/**
 * The stored settings a GameInfoModel asks for, or a 400 naming the first problem. Every editable
 * field is taken (a full replace); missing ones get GZCTF's defaults. Stricter than GZCTF, which saves
 * these unchecked: start must be before end, a required writeup's deadline must not be before the
 * end, divisions are trimmed, non-empty and unique, limits are non-negative and an out-of-range blood
 * bonus is refused rather than silently replaced by the default. Markdown is stored as written: the
 * client sanitises it when rendering.
 */
export function gameSettings(model: GameInfoModel): GameSettings {
  rejectNul(model.title, model.summary, model.content, model.writeupNote, model.inviteCode, model.divisions);
  if (model.title.trim() === '') throw badRequest('edit.games.titleRequired');
  const startAt = instant(model.start, 'start');
  const endAt = instant(model.end, 'end');
  if (startAt >= endAt) throw badRequest('edit.games.startAfterEnd');
  const writeupRequired = model.writeupRequired ?? false;
  const writeupDeadline = instant(model.writeupDeadline ?? 0, 'writeupDeadline');
  if (writeupRequired && writeupDeadline < endAt) throw badRequest('edit.games.writeupDeadlineBeforeEnd');
  const teamMemberCountLimit = model.teamMemberCountLimit ?? 0;
  const containerCountLimit = model.containerCountLimit ?? 3;
  for (const [field, value] of [
    ['teamMemberCountLimit', teamMemberCountLimit],
    ['containerCountLimit', containerCountLimit],
  ] as const) {
    if (value < 0) throw badRequest('edit.games.negativeLimit', { field });
  }
  const bloodBonus = model.bloodBonus ?? DEFAULT_BLOOD_BONUS;
  if (!isValidBloodBonus(bloodBonus)) throw badRequest('edit.games.invalidBloodBonus');
  const inviteCode = model.inviteCode?.trim() ? model.inviteCode : null;
  return {
    title: model.title,
    summary: model.summary ?? '',
    content: model.content ?? '',
    hidden: model.hidden ?? false,
    acceptWithoutReview: model.acceptWithoutReview ?? false,
    inviteCode,
    divisions: cleanDivisions(model.divisions),
    teamMemberCountLimit,
    containerCountLimit,
    practiceMode: model.practiceMode ?? true,
    startAt,
    endAt,
    writeupRequired,
    writeupDeadline,
    writeupNote: model.writeupNote ?? '',
    bloodBonus,
  };
}

export async function getGames(
  db: Db,
  page: { count?: number; skip?: number } & SortRequest<GameSort>,
): Promise<GameInfoPage> {
  const [rows, total] = await Promise.all([
    listGames(db, { ...page, count: page.count ?? DEFAULT_GAME_PAGE, skip: page.skip ?? 0 }),
    countGames(db),
  ]);
  return { data: rows.map(toGameInfo), length: rows.length, total };
}

/** A game or 404; other edit services use it to check the `{id}` of their path. */
export async function requireGame(db: Db, id: number): Promise<GameRow> {
  const game = await findGame(db, id);
  if (!game) throw notFound('edit.games.notFound');
  return game;
}

export async function getGame(db: Db, id: number): Promise<GameInfoModel> {
  return toGameInfo(await requireGame(db, id));
}

/** Creates a game with a fresh Ed25519 key pair (the private half XOR-ed with XOR_KEY when set). */
export async function createGame(db: Db, xorKey: string | undefined, model: GameInfoModel): Promise<GameInfoModel> {
  const settings = gameSettings(model);
  const keys = generateGameKeys(xorKey);
  return toGameInfo(await insertGame(db, { ...settings, ...keys }));
}

/**
 * Replaces a game's settings. New times must still hold the scoreboard freeze (as `setFreeze` asks):
 * a freeze before the start would show players an empty board all game, one after the end nothing.
 * Checked under the game row's lock, so a freeze committed meanwhile is the one checked.
 */
export async function editGame(db: Database, id: number, model: GameInfoModel): Promise<GameInfoModel> {
  const settings = gameSettings(model);
  const game = await db.transaction(async (tx) => {
    const current = await lockGame(tx, id);
    if (!current) throw notFound('edit.games.notFound');
    if (current.freezeAt && (current.freezeAt < settings.startAt || current.freezeAt > settings.endAt)) {
      throw badRequest('game.freezeOutOfRange');
    }
    return (await updateGame(tx, id, settings))!;
  });
  bus.emit('scoreboardChanged', { gameId: id, cause: 'edit' });
  return toGameInfo(game);
}

/**
 * Deletes a game and everything it owns in one transaction. The foreign keys cascade to challenges,
 * flags, participations and their members, instances, containers, submissions, solves, cheat records,
 * notices and events; what they cannot reach is done here: the attachments of challenges and flags,
 * admin test containers, and the file references of attachments, writeups and the poster. Blobs whose
 * last reference went are unlinked after the commit. Any failure rolls everything back and answers
 * 400, as GZCTF does.
 */
export async function deleteGame(db: Database, dataDir: string, id: number): Promise<void> {
  let removed: { hashes: string[]; containerIds: string[]; challengeIds: number[] };
  try {
    removed = await db.transaction(async (tx) => {
      const game = await lockGame(tx, id);
      if (!game) throw notFound('edit.games.notFound');
      const leftovers = await gameLeftovers(tx, id);
      if (!(await deleteGameRow(tx, id))) throw notFound('edit.games.notFound');
      const hashes = await dropAttachments(tx, leftovers.attachmentIds, leftovers.attachmentHashes);
      await deleteTestContainers(tx, leftovers.testContainerIds);
      hashes.push(...(await releaseHashes(tx, leftovers.writeupHashes)));
      if (game.posterHash) hashes.push(...(await releaseHashes(tx, [game.posterHash])));
      return { hashes, containerIds: leftovers.runtimeContainerIds, challengeIds: leftovers.challengeIds };
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // The route logs the cause; the client only learns that nothing was deleted.
    const failure = new HttpError(400, 'edit.games.deleteFailed');
    failure.cause = error;
    throw failure;
  }
  await removeBlobs(db, dataDir, removed.hashes);
  if (removed.containerIds.length > 0) bus.emit('containersRemoved', { containerIds: removed.containerIds });
  if (removed.challengeIds.length > 0) bus.emit('challengesRemoved', { challengeIds: removed.challengeIds });
  bus.emit('scoreboardChanged', { gameId: id, cause: 'edit' });
}

/** Stores the poster as WebP (not resized, ≤ 3 MiB) and returns its URL; the old one is released. */
export async function updatePoster(db: Database, dataDir: string, id: number, image: Buffer): Promise<string> {
  await requireGame(db, id);
  const webp = await toWebp(image);
  const { hash, gone } = await db.transaction(async (tx) => {
    const game = await lockGame(tx, id);
    if (!game) throw notFound('edit.games.notFound');
    const stored = await storeFile(tx, dataDir, { buffer: webp, name: POSTER_NAME });
    await updateGame(tx, id, { posterHash: stored.hash });
    const released = game.posterHash ? await releaseFileRow(tx, game.posterHash) : 'missing';
    return { hash: stored.hash, gone: released === 'deleted' ? [game.posterHash!] : [] };
  });
  await removeBlobs(db, dataDir, gone);
  return fileUrl(hash, POSTER_NAME);
}
