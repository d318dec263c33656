import type { GameNotice } from '@/features/game/api';
import { addNotice, byNewest, noticeFromHub, noticeText, plainAnnouncement } from '@/features/game/lib/notices';
import { countdownParts, elapsedPercent, gamePhase } from '@/features/game/lib/time';

const ISO = '2026-03-01T10:00:00.250Z';

describe('notices from the hub', () => {
  test('turn the ISO time into Unix ms and drop anything that is not a notice', () => {
    expect(noticeFromHub({ id: 4, type: 'FirstBlood', values: ['Red', 'Warmup'], time: ISO })).toEqual({
      id: 4,
      type: 'FirstBlood',
      values: ['Red', 'Warmup'],
      time: Date.parse(ISO),
    });
    expect(noticeFromHub({ id: 4, type: 'Normal', values: ['hi'], time: 1234 })?.time).toBe(1234);
    expect(noticeFromHub({ id: 'x', type: 'Normal' })).toBeNull();
    expect(noticeFromHub({ id: 1, type: 'Party' })).toBeNull();
    expect(noticeFromHub(null)).toBeNull();
  });

  test('are added once by id, newest first when read', () => {
    const list: GameNotice[] = [{ id: 1, type: 'Normal', values: ['a'], time: 10 }];
    addNotice(list, { id: 2, type: 'NewHint', values: ['Warmup'], time: 20 });
    addNotice(list, { id: 2, type: 'NewHint', values: ['Warmup'], time: 20 });
    expect(byNewest(list).map((notice) => notice.id)).toEqual([2, 1]);
  });

  test('read as texts with their values', () => {
    expect(noticeText({ id: 1, type: 'SecondBlood', values: ['Red', 'Warmup'], time: 0 })).toEqual({
      key: 'game:notice.SecondBlood',
      values: { team: 'Red', challenge: 'Warmup' },
    });
    expect(noticeText({ id: 1, type: 'NewChallenge', values: ['Warmup'], time: 0 }).values).toEqual({
      challenge: 'Warmup',
    });
    expect(noticeText({ id: 1, type: 'Normal', values: ['Hello'], time: 0 }).values).toEqual({ content: 'Hello' });
  });
});

describe('an announcement as a notification shows it', () => {
  it('drops markdown marks but keeps underscores inside words and flags', () => {
    expect(plainAnnouncement('The **attachment** of _Warmup_ was `replaced`.')).toBe(
      'The attachment of Warmup was replaced.',
    );
    expect(plainAnnouncement('## Heads up\nSee [the rules](https://example.com/rules).')).toBe(
      'Heads up\nSee the rules.',
    );
    expect(plainAnnouncement('Flags look like flag{snake_case_words}, e.g. my_var_name.')).toBe(
      'Flags look like flag{snake_case_words}, e.g. my_var_name.',
    );
  });
});

describe('game time', () => {
  const game = { start: 1000, end: 2000 };
  test('phases and progress', () => {
    expect(gamePhase(game, 999)).toBe('upcoming');
    expect(gamePhase(game, 1500)).toBe('running');
    expect(gamePhase(game, 2001)).toBe('ended');
    expect(elapsedPercent(game, 1250)).toBe(25);
    expect(elapsedPercent(game, 5000)).toBe(100);
  });
  test('countdowns', () => {
    expect(countdownParts(((26 * 60 + 3) * 60 + 4) * 1000)).toEqual({ days: 1, clock: '02:03:04' });
    expect(countdownParts(-5)).toEqual({ days: 0, clock: '00:00:00' });
  });
});
