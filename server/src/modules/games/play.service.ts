import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import { fileUrl } from '../../lib/blobs';
import { bus } from '../../lib/bus';
import { countGames, findGame, listVisibleGames, lockGame, setFreezeAt, type GameRow } from './games.repository';
import { POSTER_NAME } from './games.service';

/** Games as players see them (reference §2.5): the lists, the phase checks, and the admin-set freeze. */

type Schemas = components['schemas'];

export const posterUrl = (game: GameRow) => (game.posterHash ? fileUrl(game.posterHash, POSTER_NAME) : null);

function toBasicGameInfo(game: GameRow): Schemas['BasicGameInfoModel'] {
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    poster: posterUrl(game),
    limit: game.teamMemberCountLimit,
    start: game.startAt.getTime(),
    end: game.endAt.getTime(),
  };
}

export async function browseGames(db: Db, page: { count?: number; skip?: number }) {
  const rows = await listVisibleGames(db, { count: page.count ?? 10, skip: page.skip ?? 0 });
  const data = rows.map(toBasicGameInfo);
  return { data, length: data.length, total: await countGames(db) };
}

/** Running games (nearest end first), then upcoming (soonest start), then ended (latest end). */
export async function recentGames(db: Db, limit = 0) {
  const now = Date.now();
  const rows = await listVisibleGames(db, { count: 0, skip: 0 });
  const phase = (game: GameRow) => (game.startAt.getTime() > now ? 1 : game.endAt.getTime() >= now ? 0 : 2);
  const key = (game: GameRow) => [game.endAt.getTime(), game.startAt.getTime(), -game.endAt.getTime()][phase(game)]!;
  rows.sort((a, b) => phase(a) - phase(b) || key(a) - key(b));
  const capped = Math.min(limit > 0 ? limit : 50, 50);
  return rows.slice(0, capped).map(toBasicGameInfo);
}

/** The game or 404 with the players' message (the edit side's `requireGame` names the admin one). */
export async function gameOrNotFound(db: Db, id: number): Promise<GameRow> {
  const game = await findGame(db, id);
  if (!game) throw notFound('game.notFound');
  return game;
}

export const notStarted = () => new HttpError(400, 'game.notStarted', {}, 10001);
export const ended = () => new HttpError(400, 'game.ended', {}, 10002);

/** Refuses a game that has not started with 400 (body status 10001; GZCTF meant to send it). */
export function requireStarted(game: GameRow): void {
  if (game.startAt.getTime() > Date.now()) throw notStarted();
}

/** The admin-set scoreboard freeze of a game (Unix ms, or null for none). */
export async function getFreeze(db: Db, gameId: number): Promise<{ freezeAt: number | null }> {
  const game = await gameOrNotFound(db, gameId);
  return { freezeAt: game.freezeAt?.getTime() ?? null };
}

/** Sets or lifts the freeze; a freeze outside the game's start–end would freeze nothing or everything. */
/** Checked under the game row's lock, as `editGame` checks new times against the freeze: neither can slip past the other. */
export async function setFreeze(db: Database, gameId: number, freezeAt: number | null): Promise<void> {
  await db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!game) throw notFound('game.notFound');
    if (freezeAt !== null && (freezeAt < game.startAt.getTime() || freezeAt > game.endAt.getTime()))
      throw badRequest('game.freezeOutOfRange');
    await setFreezeAt(tx, gameId, freezeAt === null ? null : new Date(freezeAt));
  });
  bus.emit('scoreboardChanged', { gameId, cause: 'edit' });
}
