import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/http-error';
import type { SessionUser } from '../../plugins/app/auth';
import { hasRole } from '../../plugins/app/auth';
import { gameOrNotFound, notStarted } from '../games';
import { playContext } from '../participations';
import type { ScoreboardEntry } from './scoreboard-board';
import type { ScoreboardCache } from './scoreboard-cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GzipPrefix } from '../../lib/gzip-prefix';
import { COMPRESSION_THRESHOLD, isNotModified, negotiateEncoding, weakEtag } from '../../lib/http-caching';
import { NO_SOLVE_TIME, type ScoreboardModel } from './scoreboard';

/** What serving boards uses of the app. */
type BoardDeps = { db: Db; scoreboards: Pick<ScoreboardCache, 'startOf' | 'entry' | 'get'> };

/** Reading the cached boards: who sees which view, the game's details page, the CTFtime feed. */

type Schemas = components['schemas'];
type ScoreboardItem = Schemas['ScoreboardItem'];
type Solve = Schemas['ChallengeItem'];

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

/**
 * What every reader of one cached board shares, worked out once per board rather than per request:
 * players poll their game's details every 10 s (`REFRESH_INTERVAL_MS` in the client, GZCTF's SWR
 * alike), so at an event of 4,000 teams that is several hundred a second, and parsing the whole
 * board for each of them held the answers to 111–129 a second (issue 15).
 */
interface ParsedBoard {
  board: ScoreboardModel;
  items: Map<number, ScoreboardItem>;
  /** The details answer's shared part: `"challenges":…,"challengeCount":n`. */
  challengesJson: string;
  /** Each team's row as JSON text, made when its details are first asked for. */
  rankJson: Map<number, string>;
  /** The details answers' gzip start (`{` and the shared part), made when first asked for. */
  gzip?: GzipPrefix;
  /** Each challenge's score on this board, made when first asked for. */
  scores?: Map<number, number>;
}
const parsedBoards = new WeakMap<ScoreboardEntry, ParsedBoard>();

function parsed(entry: ScoreboardEntry): ParsedBoard {
  let known = parsedBoards.get(entry);
  if (!known) {
    const board = JSON.parse(entry.json) as ScoreboardModel;
    known = {
      board,
      items: new Map(board.items.map((item) => [item.id, item])),
      challengesJson: `"challenges":${JSON.stringify(board.challenges)},"challengeCount":${board.challengeCount}`,
      rankJson: new Map(),
    };
    parsedBoards.set(entry, known);
  }
  return known;
}

function teamRow(board: ParsedBoard, teamId: number): ScoreboardItem {
  return (
    board.items.get(teamId) ?? {
      id: teamId,
      name: '',
      score: 0,
      rank: 0,
      lastSubmissionTime: NO_SOLVE_TIME,
      solvedChallenges: [],
      solvedCount: 0,
    }
  );
}

function teamRowJson(board: ParsedBoard, teamId: number): string {
  let text = board.rankJson.get(teamId);
  if (text === undefined) {
    text = JSON.stringify(teamRow(board, teamId));
    board.rankJson.set(teamId, text);
  }
  return text;
}

function challengeScores(board: ParsedBoard): Map<number, number> {
  if (!board.scores) {
    board.scores = new Map();
    for (const list of Object.values(board.board.challenges)) {
      for (const challenge of list) board.scores.set(challenge.id, challenge.score);
    }
  }
  return board.scores;
}

/**
 * A frozen board paired with the live one it was last read with, for the team's own row: its
 * solves since the freeze are the team's to know (the status poll has already said Accepted), and
 * without them its challenge cards stayed unsolved, so teammates could redo the work. Made once per
 * pair of boards (the live one changes with every build), not per request.
 */
interface OwnSolves {
  /** The live board's ETag: holding the entry would keep its text alive after the cache replaced it. */
  liveEtag: string;
  /** The live board's solves by team id. */
  solves: Map<number, Solve[]>;
  /** Each team's frozen row with its later solves, as JSON text, made when its details are first asked for. */
  rankJson: Map<number, string>;
}
const ownSolves = new WeakMap<ParsedBoard, OwnSolves>();

function ownSolvesOf(board: ParsedBoard, live: ScoreboardEntry): OwnSolves {
  let known = ownSolves.get(board);
  if (known?.liveEtag !== live.etag) {
    // Only the solves are kept: the rest of the live board is never served to this reader.
    const { items } = JSON.parse(live.json) as ScoreboardModel;
    known = {
      liveEtag: live.etag,
      solves: new Map(items.map((item) => [item.id, item.solvedChallenges])),
      rankJson: new Map(),
    };
    ownSolves.set(board, known);
  }
  return known;
}

/**
 * The team's frozen row with its own solves the freeze hides. Score, ranks and last solve time stay
 * frozen (they would place the team against boards it cannot see), and each added solve shows the
 * frozen board's score as a Normal solve: the live score would reveal the decay from other teams'
 * solves, a blood type which of them came first. `solvedCount` follows the list, as the rank
 * card's share of solved challenges counts what the cards show.
 */
function ownRowJson(board: ParsedBoard, own: OwnSolves, teamId: number): string {
  let text = own.rankJson.get(teamId);
  if (text === undefined) {
    const row = teamRow(board, teamId);
    const scores = challengeScores(board);
    const known = new Set(row.solvedChallenges.map((solve) => solve.id));
    const added: Solve[] = [];
    for (const solve of own.solves.get(teamId) ?? []) {
      const score = scores.get(solve.id);
      // A challenge the frozen board does not list yet (boards read from two builds) is not shown either.
      if (known.has(solve.id) || score === undefined) continue;
      added.push({ id: solve.id, score, type: 'Normal', userName: solve.userName, time: solve.time });
    }
    if (added.length === 0) text = teamRowJson(board, teamId);
    else {
      const solvedChallenges = [...row.solvedChallenges, ...added];
      text = JSON.stringify({ ...row, solvedChallenges, solvedCount: solvedChallenges.length });
    }
    own.rankJson.set(teamId, text);
  }
  return text;
}

/** A team's game details (`GameDetailModel`) as JSON text, with its ETag, both made without serialising the board. */
export interface DetailsAnswer {
  json: string;
  etag: string;
  /** The same text gzipped: only the team's own part is compressed here. */
  gzip(): Buffer;
}

export async function details(deps: BoardDeps, gameId: number, user: SessionUser): Promise<DetailsAnswer> {
  const { game, participation } = await playContext(deps.db, gameId, user);
  const view = viewFor(user);
  const entry = (await deps.scoreboards.entry(gameId, view))!;
  const board = parsed(entry);
  let rank: string | undefined;
  if (view === 'frozen' && board.board.freezeTime != null) {
    const live = await deps.scoreboards.entry(gameId, 'live');
    if (live) rank = ownRowJson(board, ownSolvesOf(board, live), participation.teamId);
  }
  rank ??= teamRowJson(board, participation.teamId);
  const own =
    `"rank":${rank},"teamToken":${JSON.stringify(participation.token)},` +
    `"writeupRequired":${game.writeupRequired},"writeupDeadline":${game.writeupDeadline.getTime()}`;
  return {
    json: `{${board.challengesJson},${own}}`,
    // The board's ETag stands for its shared part, so only the team's own part is hashed.
    etag: weakEtag(`${entry.etag}\u0000${own}`),
    gzip: () => (board.gzip ??= new GzipPrefix(`{${board.challengesJson},`)).finish(`${own}}`),
  };
}

/**
 * A team's details as the body of `reply`: none (undefined, as `cachedJsonBody`'s) with a 304 when
 * If-None-Match names the ETag, else the text, gzipped from the board's shared compressed start when
 * the client takes gzip and the text is over the compression threshold (a client taking only brotli
 * gets it from the compression plugin, per request).
 */
export function detailsBody(request: FastifyRequest, reply: FastifyReply, answer: DetailsAnswer): Buffer | undefined {
  if (isNotModified(request, reply, answer.etag, 'private')) return undefined;
  reply.type('application/json; charset=utf-8');
  const large = answer.json.length >= COMPRESSION_THRESHOLD;
  if (large && negotiateEncoding(request.headers['accept-encoding'], ['gzip']) === 'gzip') {
    reply.header('content-encoding', 'gzip');
    return answer.gzip();
  }
  return Buffer.from(answer.json, 'utf8');
}

/**
 * A challenge's score as a player's frozen board shows it, or undefined when the reader's board is
 * not frozen (or does not list it): a score decays with every solve, so the live one would tell
 * players what the freeze hides.
 */
export async function frozenChallengeScore(
  deps: BoardDeps,
  gameId: number,
  challengeId: number,
  user: SessionUser,
): Promise<number | undefined> {
  if (viewFor(user) === 'live') return undefined;
  const entry = await deps.scoreboards.entry(gameId, 'frozen');
  if (!entry) return undefined;
  const board = parsed(entry);
  if (board.board.freezeTime == null) return undefined;
  return challengeScores(board).get(challengeId);
}

/** CTFtime's scoreboard feed (https://ctftime.org/json-scoreboard-feed) from the players' view. */
export async function ctftimeFeed(deps: BoardDeps, gameId: number) {
  const { board } = parsed(await scoreboardEntry(deps, gameId, null));
  return {
    standings: board.items.map((item) => ({ pos: item.rank, team: item.name, score: item.score })),
  };
}
