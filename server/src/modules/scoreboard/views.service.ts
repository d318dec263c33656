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
import { COMPRESSION_THRESHOLD, negotiateEncoding, sentNotModified, weakEtag } from '../../lib/http-caching';
import { NO_SOLVE_TIME, type ScoreboardModel } from './scoreboard';

/** What serving boards uses of the app. */
type BoardDeps = { db: Db; scoreboards: Pick<ScoreboardCache, 'startOf' | 'entry' | 'get'> };

/** Reading the cached boards: who sees which view, the game's details page, the CTFtime feed. */

type Schemas = components['schemas'];
type ScoreboardItem = Schemas['ScoreboardItem'];

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

function teamRowJson(board: ParsedBoard, teamId: number): string {
  let text = board.rankJson.get(teamId);
  if (text === undefined) {
    const item: ScoreboardItem = board.items.get(teamId) ?? {
      id: teamId,
      name: '',
      score: 0,
      rank: 0,
      lastSubmissionTime: NO_SOLVE_TIME,
      solvedChallenges: [],
      solvedCount: 0,
    };
    text = JSON.stringify(item);
    board.rankJson.set(teamId, text);
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
  const entry = (await deps.scoreboards.entry(gameId, viewFor(user)))!;
  const board = parsed(entry);
  const own =
    `"rank":${teamRowJson(board, participation.teamId)},"teamToken":${JSON.stringify(participation.token)},` +
    `"writeupRequired":${game.writeupRequired},"writeupDeadline":${game.writeupDeadline.getTime()}`;
  return {
    json: `{${board.challengesJson},${own}}`,
    // The board's ETag stands for its shared part, so only the team's own part is hashed.
    etag: weakEtag(`${entry.etag}\u0000${own}`),
    gzip: () => (board.gzip ??= new GzipPrefix(`{${board.challengesJson},`)).finish(`${own}}`),
  };
}

/**
 * Sends a team's details: a 304 without a body when If-None-Match names the ETag, else the text,
 * gzipped from the board's shared compressed start when the client takes gzip and the text is over
 * the compression threshold (a client taking only brotli gets it from the compression plugin, per
 * request).
 */
export function sendDetails(request: FastifyRequest, reply: FastifyReply, answer: DetailsAnswer): FastifyReply {
  if (sentNotModified(request, reply, answer.etag, 'private')) return reply;
  reply.type('application/json; charset=utf-8');
  const large = answer.json.length >= COMPRESSION_THRESHOLD;
  if (large && negotiateEncoding(request.headers['accept-encoding'], ['gzip']) === 'gzip') {
    return reply.header('content-encoding', 'gzip').send(answer.gzip());
  }
  return reply.send(answer.json);
}

/** CTFtime's scoreboard feed (https://ctftime.org/json-scoreboard-feed) from the players' view. */
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
  const { board } = parsed(entry);
  if (board.freezeTime == null) return undefined;
  for (const list of Object.values(board.challenges)) {
    const found = list.find((challenge) => challenge.id === challengeId);
    if (found) return found.score;
  }
  return undefined;
}

export async function ctftimeFeed(deps: BoardDeps, gameId: number) {
  const { board } = parsed(await scoreboardEntry(deps, gameId, null));
  return {
    standings: board.items.map((item) => ({ pos: item.rank, team: item.name, score: item.score })),
  };
}
