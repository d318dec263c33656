import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/http-error';
import type { SessionUser } from '../../plugins/app/auth';
import { hasRole } from '../../plugins/app/auth';
import { gameOrNotFound, notStarted } from '../games';
import { playContext } from '../participations';
import type { ScoreboardEntry } from './scoreboard-board';
import type { ScoreboardCache } from './scoreboard-cache';
import { NO_SOLVE_TIME, type ScoreboardModel } from './scoreboard';

/** What serving boards uses of the app. */
type BoardDeps = { db: Db; scoreboards: Pick<ScoreboardCache, 'startOf' | 'entry' | 'get'> };

/** Reading the cached boards: who sees which view, the game's details page, the CTFtime feed. */

type Schemas = components['schemas'];

function viewFor(user: SessionUser | null): 'live' | 'frozen' {
  return hasRole(user, 'Monitor') ? 'live' : 'frozen';
}

/**
 * The cached board. A game this process has generated a board for needs no query: its start time
 * is remembered (game edits regenerate the board, refreshing it).
 */
export async function scoreboardEntry(
  deps: BoardDeps,
  gameId: number,
  user: SessionUser | null,
): Promise<ScoreboardEntry> {
  const startAt = deps.scoreboards.startOf(gameId) ?? (await gameOrNotFound(deps.db, gameId)).startAt.getTime();
  if (startAt > Date.now()) throw notStarted();
  const board = await deps.scoreboards.entry(gameId, viewFor(user));
  if (board === undefined) throw notFound('game.notFound');
  return board;
}

export async function scoreboardJson(deps: BoardDeps, gameId: number, user: SessionUser | null): Promise<string> {
  return (await scoreboardEntry(deps, gameId, user)).json;
}

export async function details(deps: BoardDeps, gameId: number, user: SessionUser): Promise<Schemas['GameDetailModel']> {
  const { game, participation } = await playContext(deps.db, gameId, user);
  const board = JSON.parse((await deps.scoreboards.get(gameId, viewFor(user)))!) as ScoreboardModel;
  const rank =
    board.items.find((item) => item.id === participation.teamId) ??
    ({
      id: participation.teamId,
      name: '',
      score: 0,
      rank: 0,
      lastSubmissionTime: NO_SOLVE_TIME,
      solvedChallenges: [],
      solvedCount: 0,
    } as Schemas['ScoreboardItem']);
  return {
    challenges: board.challenges,
    challengeCount: board.challengeCount,
    rank,
    teamToken: participation.token,
    writeupRequired: game.writeupRequired,
    writeupDeadline: game.writeupDeadline.getTime(),
  };
}

/** CTFtime's scoreboard feed (https://ctftime.org/json-scoreboard-feed) from the players' view. */
export async function ctftimeFeed(deps: BoardDeps, gameId: number) {
  const board = JSON.parse(await scoreboardJson(deps, gameId, null)) as ScoreboardModel;
  return {
    standings: board.items.map((item) => ({ pos: item.rank, team: item.name, score: item.score })),
  };
}
