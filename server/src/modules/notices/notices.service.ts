import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import type { NoticeType } from '../../db/schema/enums';
import { badRequest, notFound } from '../../lib/http-error';
import { bus } from '../../lib/bus';
import { gameOrNotFound, requireGame, requireStarted } from '../games';
import { rejectNul } from '../../lib/text';
import {
  deleteNormalNotice,
  findNotice,
  insertNotice,
  listGameNotices,
  listNormalNotices,
  updateNormalNotice,
  type NoticeRow,
} from './notices.repository';

type Schemas = components['schemas'];
export type GameNotice = Schemas['GameNotice'];
export type GameNoticeModel = Schemas['GameNoticeModel'];

export function toGameNotice(row: NoticeRow): GameNotice {
  return { id: row.id, type: row.type, values: row.values, time: row.publishedAt.getTime() };
}

// Stored as written (markdown included): the client sanitises when rendering (architecture §6.6).
function noticeContent(model: GameNoticeModel): string {
  if (model.content.trim() === '') throw badRequest('edit.notices.contentRequired');
  rejectNul(model.content);
  return model.content;
}

/**
 * Stores a notice and announces it. Besides admins' Normal notices, challenge edits post NewChallenge
 * and NewHint notices through here (`values` = [challenge title]).
 */
export async function postNotice(db: Db, gameId: number, type: NoticeType, values: string[]): Promise<GameNotice> {
  const notice = toGameNotice(await insertNotice(db, { gameId, type, values }));
  bus.emit('noticePublished', { gameId, notice });
  return notice;
}

export async function addNotice(db: Db, gameId: number, model: GameNoticeModel): Promise<GameNotice> {
  const content = noticeContent(model);
  await requireGame(db, gameId);
  return postNotice(db, gameId, 'Normal', [content]);
}

export async function getNotices(db: Db, gameId: number): Promise<GameNotice[]> {
  await requireGame(db, gameId);
  return (await listNormalNotices(db, gameId)).map(toGameNotice);
}

/** The players' notice list's page when none is asked for (the contract's defaults). */
const DEFAULT_PAGE = { count: 100, skip: 0 };

/** Whether `page` is the default one: what every player's page polls, and what `NoticeLists` keeps. */
export const isDefaultNoticePage = (page: { count?: number; skip?: number }) =>
  (page.count ?? DEFAULT_PAGE.count) === DEFAULT_PAGE.count && (page.skip ?? DEFAULT_PAGE.skip) === DEFAULT_PAGE.skip;

const BLOODS: ReadonlySet<NoticeRow['type']> = new Set(['FirstBlood', 'SecondBlood', 'ThirdBlood']);

/**
 * Blood notices name teams and when they solved: those from after the board's freeze are not shown
 * (none is sent while frozen; these are from before the freeze was set, after its time).
 */
function withoutFrozenBloods(rows: NoticeRow[], game: { freezeAt: Date | null; endAt: Date }): NoticeRow[] {
  const { freezeAt } = game;
  if (!freezeAt || freezeAt >= game.endAt) return rows;
  return rows.filter((row) => !(BLOODS.has(row.type) && row.publishedAt >= freezeAt));
}

/** The players' notice list, once the game has started; `count` 0 means all. */
export async function playerNotices(db: Db, gameId: number, page: { count?: number; skip?: number }) {
  const game = await gameOrNotFound(db, gameId);
  requireStarted(game);
  const rows = withoutFrozenBloods(await listGameNotices(db, gameId), game);
  const skip = page.skip ?? DEFAULT_PAGE.skip;
  const count = page.count ?? DEFAULT_PAGE.count;
  return rows.slice(skip, count > 0 ? skip + count : undefined).map(toGameNotice);
}

async function requireNormalNotice(db: Db, gameId: number, id: number): Promise<NoticeRow> {
  await requireGame(db, gameId);
  const notice = await findNotice(db, gameId, id);
  if (!notice) throw notFound('edit.notices.notFound');
  // Blood, hint and new-challenge notices are the platform's record; admins edit only their own kind.
  if (notice.type !== 'Normal') throw badRequest('edit.notices.notNormal');
  return notice;
}

/** Replaces a Normal notice's text; it is published again, now. */
export async function editNotice(db: Db, gameId: number, id: number, model: GameNoticeModel): Promise<GameNotice> {
  const content = noticeContent(model);
  await requireNormalNotice(db, gameId, id);
  const row = await updateNormalNotice(db, gameId, id, { values: [content], publishedAt: new Date() });
  if (!row) throw notFound('edit.notices.notFound');
  const notice = toGameNotice(row);
  bus.emit('noticePublished', { gameId, notice });
  return notice;
}

export async function removeNotice(db: Db, gameId: number, id: number): Promise<void> {
  await requireNormalNotice(db, gameId, id);
  if (!(await deleteNormalNotice(db, gameId, id))) throw notFound('edit.notices.notFound');
  bus.emit('noticeRemoved', { gameId, id });
}
