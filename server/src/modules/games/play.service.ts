import type { FastifyInstance } from 'fastify';
import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import type { AnswerResult } from '../../db/schema/enums';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import { generateDynamicFlag, teamHash } from '../../lib/flag-template';
import { teamHashSalt } from '../../lib/game-keys';
import { challengeScore } from '../../lib/scoring';
import { fileUrl } from '../../lib/storage';
import type { SessionUser } from '../../plugins/app/auth';
import { hasRole } from '../../plugins/app/auth';
import type { ScoreboardEntry } from '../../plugins/app/scoreboard-cache';
import { findAttachments, toAttachmentModel } from '../attachments';
import { publish } from '../edit/edit.events';
import * as repo from './game.repository';
import { submissionIntake } from './intake';
import type { ChallengeRow, GameRow, InstanceRow, ParticipationRow } from './game.repository';
import { NO_SOLVE_TIME, type ScoreboardModel } from './scoreboard';

type Schemas = components['schemas'];
const MAX_ANSWER_LENGTH = 127;

const posterUrl = (game: GameRow) => (game.posterHash ? fileUrl(game.posterHash, 'poster') : null);

export function toBasicGameInfo(game: GameRow): Schemas['BasicGameInfoModel'] {
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

export async function listGames(db: Db, page: { count?: number; skip?: number }) {
  const rows = await repo.listVisibleGames(db, { count: page.count ?? 10, skip: page.skip ?? 0 });
  const data = rows.map(toBasicGameInfo);
  return { data, length: data.length, total: await repo.countAllGames(db) };
}

/** Running games (nearest end first), then upcoming (soonest start), then ended (latest end). */
export async function recentGames(db: Db, limit = 0) {
  const now = Date.now();
  const rows = await repo.listVisibleGames(db, { count: 0, skip: 0 });
  const phase = (game: GameRow) => (game.startAt.getTime() > now ? 1 : game.endAt.getTime() >= now ? 0 : 2);
  const key = (game: GameRow) => [game.endAt.getTime(), game.startAt.getTime(), -game.endAt.getTime()][phase(game)]!;
  rows.sort((a, b) => phase(a) - phase(b) || key(a) - key(b));
  const capped = Math.min(limit > 0 ? limit : 50, 50);
  return rows.slice(0, capped).map(toBasicGameInfo);
}

export async function requireGame(db: Db, id: number): Promise<GameRow> {
  const game = await repo.findGame(db, id);
  if (!game) throw notFound('game.notFound');
  return game;
}

export async function gameInfo(
  db: Db,
  id: number,
  user: SessionUser | null,
): Promise<Schemas['DetailedGameInfoModel']> {
  const game = await requireGame(db, id);
  const mine = user ? await repo.findUserParticipation(db, user.id, id) : undefined;
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    content: game.content,
    hidden: game.hidden,
    divisions: game.divisions,
    inviteCodeRequired: !!game.inviteCode,
    writeupRequired: game.writeupRequired,
    poster: posterUrl(game),
    limit: game.teamMemberCountLimit,
    teamCount: await repo.countParticipations(db, id),
    division: mine?.participation.division ?? null,
    teamName: mine?.teamName ?? null,
    practiceMode: game.practiceMode,
    status: mine?.participation.status ?? 'Unsubmitted',
    start: game.startAt.getTime(),
    end: game.endAt.getTime(),
  };
}

export const notStarted = () => new HttpError(400, 'game.notStarted', {}, 10001);
export const ended = () => new HttpError(400, 'game.ended', {}, 10002);

/** Refuses a game that has not started with 400 (body status 10001; GZCTF meant to send it). */
export function requireStarted(game: GameRow): void {
  if (game.startAt.getTime() > Date.now()) throw notStarted();
}

export interface PlayContext {
  game: GameRow;
  participation: ParticipationRow;
  teamName: string;
}

/** GZCTF's GetContextInfo (reference §2.5), in its order. */
export async function playContext(
  db: Db,
  gameId: number,
  user: SessionUser,
  options: { allowEnded?: boolean } = {},
): Promise<PlayContext> {
  const game = await requireGame(db, gameId);
  const mine = await repo.findUserParticipation(db, user.id, gameId);
  if (!mine) throw badRequest('game.notParticipated');
  if (mine.participation.status !== 'Accepted') throw badRequest('game.notAccepted');
  requireStarted(game);
  if (game.endAt.getTime() < Date.now() && !game.practiceMode && !options.allowEnded) throw ended();
  return { game, participation: mine.participation, teamName: mine.teamName };
}

export function viewFor(user: SessionUser | null): 'live' | 'frozen' {
  return hasRole(user, 'Monitor') ? 'live' : 'frozen';
}

/**
 * The cached board. A game this process has generated a board for needs no query: its start time
 * is remembered (game edits regenerate the board, refreshing it).
 */
export async function scoreboardEntry(
  app: FastifyInstance,
  gameId: number,
  user: SessionUser | null,
): Promise<ScoreboardEntry> {
  const startAt = app.scoreboards.startOf(gameId) ?? (await requireGame(app.db, gameId)).startAt.getTime();
  if (startAt > Date.now()) throw notStarted();
  const board = await app.scoreboards.entry(gameId, viewFor(user));
  if (board === undefined) throw notFound('game.notFound');
  return board;
}

export async function scoreboardJson(app: FastifyInstance, gameId: number, user: SessionUser | null): Promise<string> {
  return (await scoreboardEntry(app, gameId, user)).json;
}

export async function details(
  app: FastifyInstance,
  gameId: number,
  user: SessionUser,
): Promise<Schemas['GameDetailModel']> {
  const { game, participation } = await playContext(app.db, gameId, user);
  const board = JSON.parse((await app.scoreboards.get(gameId, viewFor(user)))!) as ScoreboardModel;
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

/**
 * The team's instance of a challenge, locked, created on first use, with its dynamic flag assigned
 * (DynamicAttachment: a random free flag; DynamicContainer: generated from the template, once, so a
 * re-created container keeps the team's flag). Call inside a transaction.
 */
export async function prepareInstance(
  tx: Db,
  game: GameRow,
  participation: ParticipationRow,
  challenge: ChallengeRow,
): Promise<InstanceRow> {
  const row = await repo.lockOrCreateInstance(tx, participation.id, challenge.id);
  if (challenge.type === 'DynamicAttachment' && row.flagId === null) {
    const flagId = await repo.assignFreeFlag(tx, row.id, challenge.id);
    if (flagId === undefined) throw notFound('game.noFlagAvailable');
    return { ...row, flagId };
  }
  if (challenge.type === 'DynamicContainer' && row.flag === null) {
    const hash = teamHash(teamHashSalt(game.privateKey), challenge.id, participation.token);
    const flag = generateDynamicFlag(challenge.flagTemplate, hash);
    await repo.setInstanceFlag(tx, row.id, flag);
    return { ...row, flag };
  }
  return row;
}

/**
 * A challenge as the team sees it. The team's instance is created on first access, and a dynamic
 * flag assigned (DynamicAttachment: a random free flag; DynamicContainer: generated from the template).
 */
export async function challengeDetail(
  app: FastifyInstance,
  gameId: number,
  challengeId: number,
  user: SessionUser,
): Promise<Schemas['ChallengeDetailModel']> {
  const db = app.db;
  const { game, participation } = await playContext(db, gameId, user);
  const challenge = await repo.findEnabledChallenge(db, gameId, challengeId);
  if (!challenge) throw notFound('game.challengeNotFound');
  const instance = await db.transaction((tx) => prepareInstance(tx, game, participation, challenge));
  let url: string | null = null;
  let fileSize: number | null = null;
  const attachmentId =
    challenge.type === 'DynamicAttachment'
      ? await repo.findFlagAttachmentId(db, instance.flagId!)
      : challenge.type === 'StaticAttachment'
        ? challenge.attachmentId
        : null;
  if (attachmentId !== null) {
    const view = (await findAttachments(db, [attachmentId])).get(attachmentId);
    const model = toAttachmentModel(
      view && challenge.type === 'DynamicAttachment' ? { ...view, fileName: challenge.fileName } : view,
    );
    url = model?.url ?? null;
    fileSize = model?.fileSize ?? null;
  }
  return {
    id: challenge.id,
    title: challenge.title,
    content: challenge.content,
    category: challenge.category,
    hints: challenge.hints,
    score: challengeScore(challenge),
    type: challenge.type,
    context: {
      // Only container challenges have an instance to show (one query fewer for the rest).
      ...(challenge.type === 'StaticContainer' || challenge.type === 'DynamicContainer'
        ? await app.instances.contextOf(instance.id)
        : { closeTime: null, instanceEntry: null }),
      url,
      fileSize,
    },
  };
}

/**
 * Commits the submission as FlagSubmitted, then queues it; the id is the acknowledgement. The
 * context checks and the insert are one statement shared by concurrent submissions (`intake.ts`);
 * the answers below follow `playContext`'s order, then the challenge, then the answer itself.
 */
export async function submitFlag(
  app: FastifyInstance,
  gameId: number,
  challengeId: number,
  user: SessionUser,
  flag: string,
): Promise<number> {
  const answer = flag.trim();
  // A lone surrogate (\p{Cs} in a `u` regex matches only unpaired halves) cannot travel through the
  // batch's JSON into PostgreSQL: it would fail the whole statement, and everyone's flags in it.
  const valid =
    answer.length > 0 && answer.length <= MAX_ANSWER_LENGTH && !answer.includes('\0') && !/\p{Cs}/u.test(answer);
  const context = await submissionIntake(app.db, app.database.kind).run({
    gameId,
    challengeId,
    userId: user.id,
    answer: valid ? answer : '',
    valid,
  });
  if (!context.gameFound) throw notFound('game.notFound');
  if (context.participationStatus === null) throw badRequest('game.notParticipated');
  if (context.participationStatus !== 'Accepted') throw badRequest('game.notAccepted');
  if (!context.started) throw notStarted();
  if (!context.open) throw ended();
  if (!context.challengeFound) throw notFound('game.challengeNotFound');
  if (!valid || context.submissionId === null) throw badRequest('game.invalidFlag');
  app.flagChecker.enqueue(context.submissionId);
  app.metrics.submissionsAcknowledged.inc();
  return context.submissionId;
}

export async function submissionStatus(
  db: Db,
  gameId: number,
  challengeId: number,
  submissionId: number,
  user: SessionUser,
): Promise<AnswerResult> {
  const { participation } = await playContext(db, gameId, user);
  const status = await repo.findOwnSubmissionStatus(db, submissionId, user.id, participation.id, challengeId);
  if (!status) throw notFound('game.submissionNotFound');
  return status === 'CheatDetected' ? 'WrongAnswer' : status;
}

export async function notices(db: Db, gameId: number, page: { count?: number; skip?: number }) {
  requireStarted(await requireGame(db, gameId));
  const rows = await repo.listNotices(db, gameId);
  const skip = page.skip ?? 0;
  const count = page.count ?? 100;
  return rows
    .slice(skip, count > 0 ? skip + count : undefined)
    .map((row) => ({ id: row.id, type: row.type, values: row.values, time: row.publishedAt.getTime() }));
}

/** CTFtime's scoreboard feed (https://ctftime.org/json-scoreboard-feed) from the players' view. */
export async function ctftimeFeed(app: FastifyInstance, gameId: number) {
  const board = JSON.parse(await scoreboardJson(app, gameId, null)) as ScoreboardModel;
  return {
    standings: board.items.map((item) => ({ pos: item.rank, team: item.name, score: item.score })),
  };
}

/** The admin-set scoreboard freeze of a game (Unix ms, or null for none). */
export async function getFreeze(db: Db, gameId: number): Promise<{ freezeAt: number | null }> {
  const game = await requireGame(db, gameId);
  return { freezeAt: game.freezeAt?.getTime() ?? null };
}

/** Sets or lifts the freeze; a freeze outside the game's start–end would freeze nothing or everything. */
export async function setFreeze(db: Db, gameId: number, freezeAt: number | null): Promise<void> {
  const game = await requireGame(db, gameId);
  if (freezeAt !== null && (freezeAt < game.startAt.getTime() || freezeAt > game.endAt.getTime()))
    throw badRequest('game.freezeOutOfRange');
  if (!(await repo.setFreezeAt(db, gameId, freezeAt === null ? null : new Date(freezeAt))))
    throw notFound('game.notFound');
  publish('scoreboardChanged', { gameId });
}
