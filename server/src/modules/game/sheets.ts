import ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import type { AnswerResult } from '../../db/schema/enums';
import * as repo from './game.repository';
import type { ScoreboardModel } from './scoreboard';

/** Column headings, translated by the caller (keys under `game.sheet`). */
export type SheetLabels = (key: string) => string;

const pad = (value: number) => String(value).padStart(2, '0');
/** yyyyMMddHHmmss in UTC, as GZCTF names the submission sheet. */
export const sheetTimestamp = (at: Date) =>
  `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;

async function toBuffer(workbook: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * The live scoreboard as a sheet: rank, team, division, solved count, score, then one column per
 * challenge (category order, as on the board) with the points earned, blank when unsolved.
 */
export async function scoreboardSheet(board: ScoreboardModel, t: SheetLabels): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(t('game.sheet.scoreboard'));
  const list = Object.values(board.challenges).flat();
  sheet.addRow([
    t('game.sheet.rank'),
    t('game.sheet.team'),
    t('game.sheet.division'),
    t('game.sheet.solved'),
    t('game.sheet.score'),
    ...list.map((challenge) => challenge!.title),
  ]).font = { bold: true };
  for (const item of board.items) {
    const earned = new Map(item.solvedChallenges.map((solve) => [solve.id, solve.score]));
    sheet.addRow([
      item.rank,
      item.name,
      item.division ?? '',
      item.solvedCount,
      item.score,
      ...list.map((challenge) => earned.get(challenge!.id) ?? null),
    ]);
  }
  return toBuffer(workbook);
}

/** Every submission of a game, newest first. */
export async function submissionSheet(db: Db, gameId: number, t: SheetLabels): Promise<Buffer> {
  const rows = await repo.listSubmissions(db, gameId, { count: 0, skip: 0 });
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(t('game.sheet.submissions'));
  sheet.addRow([
    t('game.sheet.status'),
    t('game.sheet.team'),
    t('game.sheet.user'),
    t('game.sheet.challenge'),
    t('game.sheet.answer'),
    t('game.sheet.time'),
  ]).font = { bold: true };
  for (const row of rows) {
    sheet.addRow([row.status as AnswerResult, row.team, row.user ?? '', row.challenge, row.answer, row.submittedAt]);
  }
  sheet.getColumn(6).numFmt = 'yyyy-mm-dd hh:mm:ss';
  return toBuffer(workbook);
}
