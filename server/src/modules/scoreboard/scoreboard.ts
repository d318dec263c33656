import { and, eq, sql } from 'drizzle-orm';
import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { userRows } from '../accounts/read-models';
import { challengeRows } from '../challenges/read-models';
import { participationRows } from '../participations/read-models';
import { solveRows, submissionRows } from '../submissions/read-models';
import { teamRows } from '../teams/read-models';
import { challengeCategories, type ChallengeCategory } from '../../db/schema/enums';
import { bloodFactor, type BloodRank } from '../../lib/blood-bonus';
import { challengeScore } from '../../lib/scoring';
import { avatarUrl } from '../../lib/blobs';
import type { ChallengeRow } from '../challenges';
import type { GameRow } from '../games';

type Schemas = components['schemas'];
export type ScoreboardModel = Schemas['ScoreboardModel'];
export type ScoreboardItem = Schemas['ScoreboardItem'];
export type ChallengeInfo = Schemas['ChallengeInfo'];

const BLOODS: BloodRank[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood'];
// .NET's DateTimeOffset.MinValue in Unix ms: "no solve yet".
export const NO_SOLVE_TIME = -62135596800000;
const TIMELINE_TEAMS = 10;

// The board's rows, read through their owners' read models (lib/read-model.ts).
const challenge = challengeRows();
const participation = participationRows();
const team = teamRows();
const solve = solveRows();
const submission = submissionRows();
const user = userRows();

/**
 * .NET's Convert.ToInt32 rounds half to even; GZCTF multiplies in float. We multiply in double and
 * round half to even on the exact product, so 1000 × 1.05 = 1050 and 1001 × 1.05 = 1051.05 → 1051.
 */
export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (Math.abs(fraction - 0.5) < 1e-9) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(value);
}

/** The columns of a challenge the board needs. */
export type ChallengeInput = Pick<
  ChallengeRow,
  'id' | 'title' | 'category' | 'disableBloodBonus' | 'originalScore' | 'minScoreRate' | 'difficulty'
>;

export interface TeamInput {
  participationId: number;
  division: string | null;
  teamId: number;
  name: string;
  bio: string | null;
  avatarHash: string | null;
}
export interface SolveInput {
  participationId: number;
  challengeId: number;
  submissionId: number;
  /** Unix ms (a number, not a Date: 30,000 of them are parsed and sorted per generation). */
  solvedAt: number;
  userName: string | null;
}

export interface ScoreboardRows {
  challenges: ChallengeInput[];
  teams: TeamInput[];
  solves: SolveInput[];
}

/**
 * What a board is built from, in three lean queries run side by side: enabled challenges, Accepted
 * teams, and the solves of those challenges. The solves come as one JSON text built by the database
 * (times as Unix ms, no dates to parse): one string to parse instead of 30,000 rows to map; the
 * submissions joined for user names are the game's only (its index, not the whole table). Solves
 * of other participations are dropped by the build, which keeps only the teams it was given.
 */
export async function loadScoreboardRows(db: Db, gameId: number): Promise<ScoreboardRows> {
  const [challengeList, teamList, solveResult] = await Promise.all([
    db
      .select({
        id: challenge.id,
        title: challenge.title,
        category: challenge.category,
        disableBloodBonus: challenge.disableBloodBonus,
        originalScore: challenge.originalScore,
        minScoreRate: challenge.minScoreRate,
        difficulty: challenge.difficulty,
      })
      .from(challenge)
      .where(and(eq(challenge.gameId, gameId), eq(challenge.isEnabled, true))),
    db
      .select({
        participationId: participation.id,
        division: participation.division,
        teamId: team.id,
        name: team.name,
        bio: team.bio,
        avatarHash: team.avatarHash,
      })
      .from(participation)
      .innerJoin(team, eq(team.id, participation.teamId))
      .where(and(eq(participation.gameId, gameId), eq(participation.status, 'Accepted'))),
    db.execute<{ solves: string }>(sql`
      select coalesce(json_agg(json_build_array(
        ${solve.participationId}, ${solve.challengeId}, ${solve.submissionId},
        floor(extract(epoch from ${solve.solvedAt}) * 1000), ${user.userName}
      )), '[]')::text as solves
      from ${solve}
      join ${submission} on ${submission.id} = ${solve.submissionId} and ${submission.gameId} = ${gameId}
      left join ${user} on ${user.id} = ${submission.userId}
      where ${solve.challengeId} in (
        select ${challenge.id} from ${challenge} where ${challenge.gameId} = ${gameId} and ${challenge.isEnabled}
      )`),
  ]);
  const packed = JSON.parse(solveResult.rows[0]?.solves ?? '[]') as Array<
    [number, number, number, number, string | null]
  >;
  const solveList = packed.map(([participationId, challengeId, submissionId, solvedAt, userName]) => ({
    participationId,
    challengeId,
    submissionId,
    solvedAt,
    userName,
  }));
  return { challenges: challengeList, teams: teamList, solves: solveList };
}

/** The end of what a board counts: the game's end, or an earlier freeze. */
const cutoffOf = (game: GameRow, until?: Date) => (until && until < game.endAt ? until : game.endAt);

/**
 * Computes a game's scoreboard from the database (reference §3.7, §5.6). Only solves of enabled
 * challenges by Accepted participations before the game's end (and before `until`, for a frozen
 * board) count. A challenge's score uses the number of such solves, which is what the checker's
 * `acceptedCount` holds (and what the admin recount sets), so the board never depends on a counter.
 */
export async function computeScoreboard(db: Db, game: GameRow, until?: Date): Promise<ScoreboardModel> {
  const rows = await loadScoreboardRows(db, game.id);
  return buildScoreboard(game, rows.challenges, rows.teams, rows.solves, cutoffOf(game, until));
}

/** The live board and the frozen one (the live one when there is no freeze) from one read of the rows. */
export async function computeScoreboardViews(
  db: Db,
  game: GameRow,
): Promise<{ live: ScoreboardModel; frozen: ScoreboardModel }> {
  return scoreboardViews(game, await loadScoreboardRows(db, game.id));
}

/** `computeScoreboardViews` from rows already read (the cache reads them beside the game). */
export function scoreboardViews(
  game: GameRow,
  rows: ScoreboardRows,
): { live: ScoreboardModel; frozen: ScoreboardModel } {
  const live = buildScoreboard(game, rows.challenges, rows.teams, rows.solves, cutoffOf(game));
  // Players are told when their board stopped counting, so a quiet board is not mistaken for a quiet game.
  const frozen =
    game.freezeAt && game.freezeAt < game.endAt
      ? {
          ...buildScoreboard(game, rows.challenges, rows.teams, rows.solves, cutoffOf(game, game.freezeAt)),
          freezeTime: game.freezeAt.getTime(),
        }
      : live;
  return { live, frozen };
}

/** The pure part: ranks, scores, bloods and timelines from rows (also used by the bench). */
export function buildScoreboard(
  game: Pick<GameRow, 'bloodBonus'>,
  challengeRows: ChallengeInput[],
  teamRows: TeamInput[],
  solveRows: SolveInput[],
  cutoff: Date,
): ScoreboardModel {
  const cutoffMs = cutoff.getTime();
  const teamsByParticipation = new Map(teamRows.map((team) => [team.participationId, team]));
  const counted = solveRows
    .filter((solve) => solve.solvedAt < cutoffMs && teamsByParticipation.has(solve.participationId))
    .sort((a, b) => a.solvedAt - b.solvedAt || a.submissionId - b.submissionId);

  const solvesByChallenge = new Map<number, SolveInput[]>();
  for (const solve of counted) {
    const list = solvesByChallenge.get(solve.challengeId) ?? [];
    list.push(solve);
    solvesByChallenge.set(solve.challengeId, list);
  }

  interface Row {
    item: ScoreboardItem;
    lastMs: number;
  }
  const rows = new Map<number, Row>();
  for (const team of teamRows) {
    rows.set(team.participationId, {
      item: {
        id: team.teamId,
        name: team.name,
        bio: team.bio,
        division: team.division,
        avatar: avatarUrl(team.avatarHash),
        score: 0,
        rank: 0,
        divisionRank: null,
        lastSubmissionTime: NO_SOLVE_TIME,
        solvedChallenges: [],
        solvedCount: 0,
      },
      lastMs: NO_SOLVE_TIME,
    });
  }

  const infos: ChallengeInfo[] = [];
  for (const challenge of challengeRows) {
    const list = solvesByChallenge.get(challenge.id) ?? [];
    const score = challengeScore({ ...challenge, acceptedCount: list.length });
    const bloods: Schemas['Blood'][] = [];
    list.forEach((solve, index) => {
      const row = rows.get(solve.participationId)!;
      const blood = !challenge.disableBloodBonus && index < 3 ? BLOODS[index]! : undefined;
      const earned = blood ? roundHalfEven(score * bloodFactor(game.bloodBonus, blood)) : score;
      if (blood) {
        const team = teamsByParticipation.get(solve.participationId)!;
        bloods.push({
          id: team.teamId,
          name: team.name,
          avatar: avatarUrl(team.avatarHash),
          submitTimeUtc: solve.solvedAt,
        });
      }
      const time = solve.solvedAt;
      row.item.solvedChallenges.push({
        id: challenge.id,
        score: earned,
        type: blood ?? 'Normal',
        userName: solve.userName,
        time,
      });
      row.item.score += earned;
      if (time > row.lastMs) row.lastMs = time;
    });
    infos.push({
      id: challenge.id,
      title: challenge.title,
      category: challenge.category,
      score,
      solved: list.length,
      bloods,
      disableBloodBonus: challenge.disableBloodBonus,
    });
  }

  const ranked = [...rows.values()].sort(
    (a, b) => b.item.score - a.item.score || a.lastMs - b.lastMs || a.item.id - b.item.id,
  );
  const divisionCounters = new Map<string, number>();
  ranked.forEach((row, index) => {
    row.item.rank = index + 1;
    row.item.lastSubmissionTime = row.lastMs;
    row.item.solvedCount = row.item.solvedChallenges.length;
    row.item.solvedChallenges.sort((a, b) => a.time - b.time || a.id - b.id);
    if (row.item.division) {
      const next = (divisionCounters.get(row.item.division) ?? 0) + 1;
      divisionCounters.set(row.item.division, next);
      row.item.divisionRank = next;
    }
  });

  const timeline = (list: Row[]): Schemas['TopTimeLine'][] =>
    list.slice(0, TIMELINE_TEAMS).map((row) => {
      let total = 0;
      // The team's solves are already in time order (ties by challenge id).
      const items = row.item.solvedChallenges.map((solve) => ({ time: solve.time, score: (total += solve.score) }));
      return { id: row.item.id, name: row.item.name, items };
    });
  const timeLines: Record<string, Schemas['TopTimeLine'][]> = { all: timeline(ranked) };
  for (const division of divisionCounters.keys()) {
    timeLines[division] = timeline(ranked.filter((row) => row.item.division === division));
  }

  return {
    updateTimeUtc: Date.now(),
    bloodBonus: game.bloodBonus,
    timeLines,
    items: ranked.map((row) => row.item),
    challenges: groupByCategory(infos),
    challengeCount: infos.length,
  };
}

/** Challenges by category, categories in enum order, titles ascending within one. */
export function groupByCategory<T extends { category: ChallengeCategory; title: string }>(
  list: T[],
): Partial<Record<ChallengeCategory, T[]>> {
  const grouped: Partial<Record<ChallengeCategory, T[]>> = {};
  for (const category of challengeCategories) {
    const items = list.filter((item) => item.category === category).sort((a, b) => a.title.localeCompare(b.title));
    if (items.length) grouped[category] = items;
  }
  return grouped;
}
