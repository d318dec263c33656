import { decodeBloodBonus, encodeBloodBonus } from '@/shared/lib/bloodBonus';
import type { GameInfoModel } from '../api';

/**
 * The Info form's fields as typed: numbers and dates stay text until saving, so a half-typed value
 * is shown as typed and validated, not coerced.
 */
export interface GameForm {
  title: string;
  summary: string;
  content: string;
  hidden: boolean;
  practiceMode: boolean;
  acceptWithoutReview: boolean;
  inviteCode: string;
  divisions: string[];
  teamMemberCountLimit: string;
  containerCountLimit: string;
  /** `<input type="datetime-local">` values, in the reader's time zone. */
  start: string;
  end: string;
  writeupRequired: boolean;
  writeupDeadline: string;
  writeupNote: string;
  /** Per-mille bonus of the first, second and third blood. */
  bloodFirst: string;
  bloodSecond: string;
  bloodThird: string;
}

export type GameFormField = keyof GameForm;
/** Field → the `edit:` key of its problem. */
export type GameFormErrors = Partial<Record<GameFormField, string>>;

const pad = (value: number) => String(value).padStart(2, '0');

/** Unix ms as a `datetime-local` value in local time (minutes precision), '' for none. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms <= 0) return '';
  const date = new Date(ms);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A `datetime-local` value (read as local time) as Unix ms, or NaN when empty or malformed. */
export function fromLocalInput(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return Number.NaN;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const date = new Date(year!, month! - 1, day!, hour!, minute!, second!);
  // The Date constructor rolls overflow into the next unit (month 13, day 99); that was not a date.
  return date.getMonth() === month! - 1 && date.getDate() === day! ? date.getTime() : Number.NaN;
}

export function gameToForm(game: GameInfoModel): GameForm {
  const bonus = decodeBloodBonus(game.bloodBonus ?? Number.NaN);
  return {
    title: game.title,
    summary: game.summary ?? '',
    content: game.content ?? '',
    hidden: game.hidden ?? false,
    practiceMode: game.practiceMode ?? true,
    acceptWithoutReview: game.acceptWithoutReview ?? false,
    inviteCode: game.inviteCode ?? '',
    divisions: game.divisions ?? [],
    teamMemberCountLimit: String(game.teamMemberCountLimit ?? 0),
    containerCountLimit: String(game.containerCountLimit ?? 3),
    start: toLocalInput(game.start),
    end: toLocalInput(game.end),
    writeupRequired: game.writeupRequired ?? false,
    writeupDeadline: toLocalInput(game.writeupDeadline),
    writeupNote: game.writeupNote ?? '',
    bloodFirst: String(bonus.first),
    bloodSecond: String(bonus.second),
    bloodThird: String(bonus.third),
  };
}

const WHOLE = /^\d+$/;
const LIMIT_MAX = 2 ** 31 - 1;

const limitValue = (text: string) => (WHOLE.test(text.trim()) ? Number(text.trim()) : Number.NaN);
const isLimit = (text: string) => {
  const value = limitValue(text);
  return Number.isSafeInteger(value) && value <= LIMIT_MAX;
};
const isBonus = (text: string) => {
  const value = limitValue(text);
  return Number.isInteger(value) && value <= 1000;
};

/**
 * What the server would refuse, found before sending: a title, valid start and end with the end
 * after the start, whole non-negative limits, bonuses from 0 to 1000 per mille, and a writeup
 * deadline (not before the end) when writeups are required.
 */
export function validateGameForm(form: GameForm): GameFormErrors {
  const errors: GameFormErrors = {};
  if (form.title.trim() === '') errors.title = 'info.error.titleRequired';
  const start = fromLocalInput(form.start);
  const end = fromLocalInput(form.end);
  if (Number.isNaN(start)) errors.start = 'info.error.dateRequired';
  if (Number.isNaN(end)) errors.end = 'info.error.dateRequired';
  else if (!Number.isNaN(start) && end <= start) errors.end = 'info.error.endBeforeStart';
  if (!isLimit(form.teamMemberCountLimit)) errors.teamMemberCountLimit = 'info.error.limit';
  if (!isLimit(form.containerCountLimit)) errors.containerCountLimit = 'info.error.limit';
  for (const field of ['bloodFirst', 'bloodSecond', 'bloodThird'] as const) {
    if (!isBonus(form[field])) errors[field] = 'info.error.bonus';
  }
  if (form.writeupRequired) {
    const deadline = fromLocalInput(form.writeupDeadline);
    if (Number.isNaN(deadline)) errors.writeupDeadline = 'info.error.dateRequired';
    else if (!Number.isNaN(end) && deadline < end) errors.writeupDeadline = 'info.error.deadlineBeforeEnd';
  }
  return errors;
}

/**
 * The model to save (a full replace on the server). Only call with a form `validateGameForm` passed.
 * An unset deadline is sent as 0, the server's "none".
 */
export function formToGame(form: GameForm, id: number): GameInfoModel {
  const deadline = fromLocalInput(form.writeupDeadline);
  return {
    id,
    title: form.title.trim(),
    summary: form.summary,
    content: form.content,
    hidden: form.hidden,
    practiceMode: form.practiceMode,
    acceptWithoutReview: form.acceptWithoutReview,
    inviteCode: form.inviteCode.trim() === '' ? null : form.inviteCode.trim(),
    divisions: form.divisions.length > 0 ? form.divisions : null,
    teamMemberCountLimit: limitValue(form.teamMemberCountLimit),
    containerCountLimit: limitValue(form.containerCountLimit),
    start: fromLocalInput(form.start),
    end: fromLocalInput(form.end),
    writeupRequired: form.writeupRequired,
    writeupDeadline: Number.isNaN(deadline) ? 0 : deadline,
    writeupNote: form.writeupNote,
    bloodBonus: encodeBloodBonus({
      first: limitValue(form.bloodFirst),
      second: limitValue(form.bloodSecond),
      third: limitValue(form.bloodThird),
    }),
  };
}

/** Adds typed divisions (comma or line separated) to a list: trimmed, without empties or repeats. */
export function addDivisions(current: readonly string[], typed: string): string[] {
  const next = [...current];
  for (const part of typed.split(/[,\n]/)) {
    const division = part.trim();
    if (division !== '' && !next.includes(division)) next.push(division);
  }
  return next;
}
