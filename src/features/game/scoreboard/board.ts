import type { ChallengeInfo, ChallengeItem, ScoreboardItem, ScoreboardModel, TopTimeLine } from '../api';

export const PAGE_SIZES = [10, 30, 50, 100];
export const DEFAULT_PAGE_SIZE = 30;

/** One column group of the table: a category and its challenges, in the board's order. */
export interface CategoryGroup {
  category: string;
  challenges: ChallengeInfo[];
}

/** The board's categories in the server's order (category enum, then title), empty ones dropped. */
export function categoryGroups(board: ScoreboardModel): CategoryGroup[] {
  return Object.entries(board.challenges)
    .filter(([, challenges]) => challenges.length > 0)
    .map(([category, challenges]) => ({ category, challenges }));
}

/** The divisions teams are in, sorted, for the filter. */
export function divisionsOf(items: ScoreboardItem[]): string[] {
  const names = new Set<string>();
  for (const item of items) if (item.division) names.add(item.division);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/**
 * The rows shown: one division (ranked within it) or all, then narrowed by a case-insensitive part of
 * the team name. Rows keep their rank, so a search never renumbers the board.
 */
export function visibleRows(items: ScoreboardItem[], division: string | null, search: string): ScoreboardItem[] {
  const needle = search.trim().toLocaleLowerCase();
  return items.filter(
    (item) =>
      (division === null || item.division === division) &&
      (needle === '' || item.name.toLocaleLowerCase().includes(needle)),
  );
}

/** The rank a row shows: within its division when filtering by one, else overall. */
export const shownRank = (item: ScoreboardItem, division: string | null) =>
  division !== null ? (item.divisionRank ?? item.rank) : item.rank;

export function solvesById(item: ScoreboardItem): Map<number, ChallengeItem> {
  return new Map(item.solvedChallenges.map((solve) => [solve.id, solve]));
}

/** The timelines of the chart: the division's top 10 when filtering by one, else the overall top 10. */
export const timelinesFor = (board: ScoreboardModel, division: string | null): TopTimeLine[] =>
  (division !== null ? board.timeLines[division] : board.timeLines.all) ?? [];

export interface ChartData {
  /** The shared x axis: every solve time of the shown teams, and the board's generation time. */
  times: number[];
  series: Array<{ id: number; label: string; data: number[] }>;
}

/**
 * Lines of different teams step at different times, while a chart shares one x axis: each team's
 * cumulative score is carried forward to every time on the axis (0 before its first solve). The game's
 * start (when known) opens the axis at 0 and the generation time closes it, so the lines rise from
 * the start and reach "now".
 */
export function chartData(timelines: TopTimeLine[], until: number, from?: number): ChartData {
  const set = new Set<number>();
  for (const line of timelines) for (const point of line.items) set.add(point.time);
  const solveTimes = [...set].sort((a, b) => a - b);
  const times = [...solveTimes];
  if (times.length && from !== undefined && from < times[0]!) times.unshift(from);
  if (times.length && until > times[times.length - 1]!) times.push(until);
  const series = timelines.map((line) => {
    const points = [...line.items].sort((a, b) => a.time - b.time);
    let index = 0;
    let score = 0;
    const data = times.map((time) => {
      while (index < points.length && points[index]!.time <= time) score = points[index++]!.score;
      return score;
    });
    return { id: line.id, label: line.name, data };
  });
  return { times, series };
}

/** Distinct solvers of a team's solves: the members the board knows of (it lists no members). */
export function solversOf(item: ScoreboardItem): string[] {
  const names = new Set<string>();
  for (const solve of item.solvedChallenges) if (solve.userName) names.add(solve.userName);
  return [...names];
}
