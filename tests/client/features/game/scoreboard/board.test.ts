import { chartData, visibleRows } from '@/features/game/scoreboard/board';
import type { ScoreboardItem } from '@/features/game/api';

const item = (id: number, name: string, division: string | null, divisionRank: number | null): ScoreboardItem => ({
  id,
  name,
  division,
  divisionRank,
  score: 0,
  rank: id,
  lastSubmissionTime: 0,
  solvedChallenges: [],
  solvedCount: 0,
});

describe('scoreboard helpers', () => {
  test('the chart carries each team’s score forward on one shared time axis, from the start to now', () => {
    const { times, series } = chartData(
      [
        {
          id: 1,
          name: 'Red',
          items: [
            { time: 10, score: 100 },
            { time: 30, score: 250 },
          ],
        },
        { id: 2, name: 'Blue', items: [{ time: 20, score: 90 }] },
      ],
      50,
      0,
    );
    expect(times).toEqual([0, 10, 20, 30, 50]);
    expect(series).toEqual([
      { id: 1, label: 'Red', data: [0, 100, 100, 250, 250] },
      { id: 2, label: 'Blue', data: [0, 0, 90, 90, 90] },
    ]);
  });

  test('rows narrow by division and by a case-insensitive part of the name, keeping their order', () => {
    const items = [item(1, 'Red Team', 'Pro', 1), item(2, 'Blue', 'Student', 1), item(3, 'Redshift', 'Student', 2)];
    expect(visibleRows(items, null, 'red').map((row) => row.id)).toEqual([1, 3]);
    expect(visibleRows(items, 'Student', '').map((row) => row.id)).toEqual([2, 3]);
    expect(visibleRows(items, 'Student', ' RED ').map((row) => row.id)).toEqual([3]);
  });
});
