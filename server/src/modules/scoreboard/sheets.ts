import type { AnswerResult } from '../../db/schema/enums';
import type { ScoreboardModel } from './scoreboard';

/** Column headings, translated by the caller (keys under `game.sheet`). */
export type SheetLabels = (key: string) => string;

/** The heading keys of both sheets; the request thread translates them, the worker only writes. */
export const SHEET_LABEL_KEYS = [
  'scoreboard',
  'submissions',
  'rank',
  'team',
  'division',
  'solved',
  'score',
  'status',
  'user',
  'challenge',
  'answer',
  'time',
] as const;
export type SheetLabelKey = (typeof SHEET_LABEL_KEYS)[number];
export type SheetLabelTexts = Record<SheetLabelKey, string>;

export const sheetLabelTexts = (t: SheetLabels): SheetLabelTexts =>
  Object.fromEntries(SHEET_LABEL_KEYS.map((key) => [key, t(`game.sheet.${key}`)])) as SheetLabelTexts;

const pad = (value: number) => String(value).padStart(2, '0');
/** yyyyMMddHHmmss in UTC, as GZCTF names the submission sheet. */
export const sheetTimestamp = (at: Date) =>
  `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;

/** What a sheet writer needs of a worksheet (ExcelJS's streaming WorksheetWriter has it). */
export interface SheetTarget {
  addRow(values: unknown[]): { font?: unknown; commit(): void };
  getColumn(index: number): { numFmt?: string };
}

/**
 * The live scoreboard as a sheet: rank, team, division, solved count, score, then one column per
 * challenge (category order, as on the board) with the points earned, blank when unsolved.
 */
export function writeScoreboardRows(sheet: SheetTarget, board: ScoreboardModel, labels: SheetLabelTexts): void {
  const list = Object.values(board.challenges).flat();
  const header = sheet.addRow([
    labels.rank,
    labels.team,
    labels.division,
    labels.solved,
    labels.score,
    ...list.map((challenge) => challenge!.title),
  ]);
  header.font = { bold: true };
  header.commit();
  for (const item of board.items) {
    const earned = new Map(item.solvedChallenges.map((solve) => [solve.id, solve.score]));
    sheet
      .addRow([
        item.rank,
        item.name,
        item.division ?? '',
        item.solvedCount,
        item.score,
        ...list.map((challenge) => earned.get(challenge!.id) ?? null),
      ])
      .commit();
  }
}

export interface SubmissionSheetRow {
  id: number;
  status: string;
  team: string;
  user: string | null;
  challenge: string;
  answer: string;
  submittedAt: Date;
}

/** Every submission of a game, newest first: the heading, then rows as their batches arrive. */
export function writeSubmissionHeader(sheet: SheetTarget, labels: SheetLabelTexts): void {
  // A streamed worksheet fixes its column styles with the first committed row.
  sheet.getColumn(6).numFmt = 'yyyy-mm-dd hh:mm:ss';
  const header = sheet.addRow([labels.status, labels.team, labels.user, labels.challenge, labels.answer, labels.time]);
  header.font = { bold: true };
  header.commit();
}

export function writeSubmissionRows(sheet: SheetTarget, rows: readonly SubmissionSheetRow[]): void {
  for (const row of rows) {
    sheet
      .addRow([row.status as AnswerResult, row.team, row.user ?? '', row.challenge, row.answer, row.submittedAt])
      .commit();
  }
}
