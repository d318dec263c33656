import type { AnswerResult, EventType, GameEvent, GameEventsApiArg, GameSubmissionsApiArg, Submission } from '../api';

/**
 * Hub payloads carry times as ISO strings (reference §6) while the REST lists carry Unix ms; the
 * pages only ever see Unix ms.
 */
export function toUnixMs(time: unknown): number {
  if (typeof time === 'number') return time;
  if (typeof time === 'string') {
    const parsed = Date.parse(time);
    return Number.isNaN(parsed) ? Date.now() : parsed;
  }
  return Date.now();
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function eventFromHub(payload: unknown): GameEvent {
  const raw = (payload ?? {}) as Record<string, unknown>;
  return {
    type: text(raw.type) as EventType,
    values: Array.isArray(raw.values) ? raw.values.map((value) => String(value)) : [],
    time: toUnixMs(raw.time),
    user: text(raw.user),
    team: text(raw.team),
  };
}

export function submissionFromHub(payload: unknown): Submission {
  const raw = (payload ?? {}) as Record<string, unknown>;
  return {
    answer: text(raw.answer),
    status: text(raw.status) as AnswerResult,
    time: toUnixMs(raw.time),
    user: text(raw.user),
    team: text(raw.team),
    challenge: text(raw.challenge),
  };
}

const CONTAINER_EVENTS: readonly EventType[] = ['ContainerStart', 'ContainerDestroy'];

/** Whether `text` (what the server's `search` matches) contains the search, case-insensitively. */
function matchesSearch(search: string | undefined, fields: string[]): boolean {
  const wanted = search?.trim().toLowerCase();
  if (!wanted) return true;
  return fields.some((field) => field.toLowerCase().includes(wanted));
}

/**
 * Puts `item` first, keeping the page at its size (count 0 means "all"). A poll may already have
 * brought the same row (neither events nor submissions have ids on the wire): then it is updated in
 * place, which is how a submission listed as `FlagSubmitted` takes its judged status. Answers by how
 * much the number of matching rows grew (1 for a new row, 0 for an update).
 */
function upsert<T>(list: T[], item: T, count: number | undefined, same: (row: T) => boolean): number {
  const index = list.findIndex(same);
  if (index >= 0) {
    list[index] = item;
    return 0;
  }
  list.unshift(item);
  if (count && list.length > count) list.length = count;
  return 1;
}

/**
 * A pushed event joins the cached first page (newest first) when that page's query would have
 * returned it; later pages shift on their next poll instead of jumping under the reader's eyes.
 * Answers by how much the number of matching events changed.
 */
export function addLiveEvent(list: GameEvent[], payload: unknown, arg: GameEventsApiArg): number {
  const event = eventFromHub(payload);
  if (arg.hideContainer && CONTAINER_EVENTS.includes(event.type)) return 0;
  if (arg.type && event.type !== arg.type) return 0;
  if (!matchesSearch(arg.search, [event.team, event.user, ...event.values])) return 0;
  if (arg.skip) return 1;
  return upsert(
    list,
    event,
    arg.count,
    (row) =>
      row.time === event.time &&
      row.type === event.type &&
      row.team === event.team &&
      row.user === event.user &&
      row.values.join('\u0000') === event.values.join('\u0000'),
  );
}

/**
 * As `addLiveEvent`, for judged submissions and the status and search the list is filtered on. A
 * later page only learns that the count changed: its rows shift on the next poll.
 */
export function addLiveSubmission(list: Submission[], payload: unknown, arg: GameSubmissionsApiArg): number {
  const submission = submissionFromHub(payload);
  const same = (row: Submission) =>
    row.time === submission.time &&
    row.team === submission.team &&
    row.user === submission.user &&
    row.challenge === submission.challenge &&
    row.answer === submission.answer;
  if (!matchesSearch(arg.search, [submission.team, submission.user, submission.challenge, submission.answer])) {
    return 0;
  }
  if (arg.type && submission.status !== arg.type) {
    // Judged into another status: it no longer belongs to this filtered list.
    const index = list.findIndex(same);
    if (index < 0) return 0;
    list.splice(index, 1);
    return -1;
  }
  // A later page cannot tell a new submission from the judgement of one it already counted.
  if (arg.skip) return 0;
  return upsert(list, submission, arg.count, same);
}
