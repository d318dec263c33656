import type { GameEvent, Submission } from '@/features/game/api';
import { addLiveEvent, addLiveSubmission, eventFromHub, toUnixMs } from '@/features/game/monitor/liveUpdates';

const ISO = '2026-03-01T10:00:00.250Z';
const MS = Date.parse(ISO);

const event = (overrides: Partial<GameEvent> = {}): GameEvent => ({
  type: 'FlagSubmit',
  values: ['WrongAnswer', 'flag{no}', 'Warmup', '1'],
  time: MS - 60_000,
  user: 'alice',
  team: 'Red',
  ...overrides,
});

const submission = (overrides: Partial<Submission> = {}): Submission => ({
  answer: 'flag{yes}',
  status: 'FlagSubmitted',
  time: MS,
  user: 'bob',
  team: 'Blue',
  challenge: 'Warmup',
  ...overrides,
});

describe('live monitor updates', () => {
  test('hub times (ISO strings) become Unix ms like the REST lists', () => {
    expect(toUnixMs(ISO)).toBe(MS);
    expect(toUnixMs(MS)).toBe(MS);
    expect(
      eventFromHub({ type: 'CheatDetected', values: ['Warmup', 'Red', 'Blue'], time: ISO, user: 'a', team: 'Red' }),
    ).toEqual({ type: 'CheatDetected', values: ['Warmup', 'Red', 'Blue'], time: MS, user: 'a', team: 'Red' });
  });

  test('a pushed event is prepended to the first page, which keeps its size', () => {
    const list = [event({ user: 'one' }), event({ user: 'two' })];
    addLiveEvent(list, { ...event({ user: 'new' }), time: ISO }, { id: 1, count: 2, skip: 0 });
    expect(list.map((item) => item.user)).toEqual(['new', 'one']);
    expect(list[0]!.time).toBe(MS);
  });

  test('a pushed event leaves later pages and hidden container events alone, and is not added twice', () => {
    const later = [event()];
    addLiveEvent(later, { ...event({ user: 'new' }), time: ISO }, { id: 1, count: 50, skip: 50 });
    expect(later).toHaveLength(1);

    const first = [event()];
    addLiveEvent(
      first,
      { ...event({ type: 'ContainerStart', values: ['3', 'Pwn me'] }), time: ISO },
      {
        id: 1,
        hideContainer: true,
        count: 50,
        skip: 0,
      },
    );
    expect(first).toHaveLength(1);

    const polled = [event({ time: MS })];
    addLiveEvent(polled, { ...event(), time: ISO }, { id: 1, count: 50, skip: 0 });
    expect(polled).toHaveLength(1);
  });

  test('a judged submission replaces the polled "submitted" row, or is prepended when new', () => {
    const list = [submission(), submission({ team: 'Red', time: MS - 1000 })];
    addLiveSubmission(list, { ...submission({ status: 'Accepted' }), time: ISO }, { id: 1, count: 50, skip: 0 });
    expect(list.map((item) => item.status)).toEqual(['Accepted', 'FlagSubmitted']);

    addLiveSubmission(
      list,
      { ...submission({ team: 'Green', status: 'WrongAnswer' }), time: ISO },
      {
        id: 1,
        count: 50,
        skip: 0,
      },
    );
    expect(list.map((item) => item.team)).toEqual(['Green', 'Blue', 'Red']);
  });

  test('a status-filtered list takes only its status and drops rows judged into another', () => {
    const list = [submission({ status: 'FlagSubmitted' })];
    addLiveSubmission(
      list,
      { ...submission({ status: 'Accepted' }), time: ISO },
      {
        id: 1,
        type: 'FlagSubmitted',
        count: 50,
        skip: 0,
      },
    );
    expect(list).toHaveLength(0);

    const wrong: Submission[] = [];
    addLiveSubmission(wrong, { ...submission({ status: 'Accepted' }), time: ISO }, { id: 1, type: 'WrongAnswer' });
    expect(wrong).toHaveLength(0);
    addLiveSubmission(wrong, { ...submission({ status: 'WrongAnswer' }), time: ISO }, { id: 1, type: 'WrongAnswer' });
    expect(wrong).toHaveLength(1);
  });

  test('a searched or type-filtered list takes only matching pushes, and says how its total changes', () => {
    const list: Submission[] = [];
    const arg = { id: 1, search: 'BLUE', count: 50, skip: 0 };
    expect(addLiveSubmission(list, { ...submission({ team: 'Red' }), time: ISO }, arg)).toBe(0);
    expect(addLiveSubmission(list, { ...submission({ status: 'WrongAnswer' }), time: ISO }, arg)).toBe(1);
    expect(addLiveSubmission(list, { ...submission({ status: 'WrongAnswer' }), time: ISO }, arg)).toBe(0);
    expect(list.map((item) => item.team)).toEqual(['Blue']);

    const events: GameEvent[] = [];
    const onlyCheats = { id: 1, type: 'CheatDetected' as const, count: 50, skip: 0 };
    expect(addLiveEvent(events, { ...event(), time: ISO }, onlyCheats)).toBe(0);
    expect(addLiveEvent(events, { ...event({ type: 'CheatDetected' }), time: ISO }, onlyCheats)).toBe(1);
    // A later page keeps its rows but counts the new event.
    expect(addLiveEvent([], { ...event({ type: 'CheatDetected' }), time: ISO }, { ...onlyCheats, skip: 50 })).toBe(1);
    expect(addLiveEvent(events, { ...event({ values: ['x'] }), time: ISO }, { id: 1, search: 'flag{no}' })).toBe(0);
  });
});
