import { and, eq, inArray } from 'drizzle-orm';
import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { challenges, participations, solves, submissions, teams, users } from '../../db/schema';
import { challengeCategories, type ChallengeCategory } from '../../db/schema/enums';
import { bloodFactor, type BloodRank } from '../../lib/blood-bonus';
import { challengeScore } from '../../lib/scoring';
import { fileUrl } from '../../lib/storage';
import type { GameRow } from './game.repository';

type Schemas = components['schemas'];
export type ScoreboardModel = Schemas['ScoreboardModel'];
export type ScoreboardItem = Schemas['ScoreboardItem'];
export type ChallengeInfo = Schemas['ChallengeInfo'];

const BLOODS: BloodRank[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood'];
// .NET's DateTimeOffset.MinValue in Unix ms: "no solve yet".
export const NO_SOLVE_TIME = -62135596800000;
const TIMELINE_TEAMS = 10;

const avatarUrl = (hash: string | null) => (hash ? fileUrl(hash, 'avatar') : null);

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

/**
 * Computes a game's scoreboard from the database (reference §3.7, §5.6). Only solves of enabled
 * challenges by Accepted participations before the game's end (and before `until`, for a frozen
 * board) count. A challenge's score uses the number of such solves, which is what the checker's
 * `acceptedCount` holds (and what the admin recount sets), so the board never depends on a counter.
 */
export async function computeScoreboard(db: Db, game: GameRow, until?: Date): Promise<ScoreboardModel> {
  const cutoff = until && until < game.endAt ? until : game.endAt;
  const challengeRows = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.gameId, game.id), eq(challenges.isEnabled, true)));
  const teamRows = await db
    .select({
      participationId: participations.id,
      division: participations.division,
      teamId: teams.id,
      name: teams.name,
      bio: teams.bio,
      avatarHash: teams.avatarHash,
    })
    .from(participations)
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .where(and(eq(participations.gameId, game.id), eq(participations.status, 'Accepted')));
  const challengeIds = challengeRows.map((row) => row.id);
  const solveRows = challengeIds.length
    ? await db
        .select({
          participationId: solves.participationId,
          challengeId: solves.challengeId,
          submissionId: solves.submissionId,
          solvedAt: solves.solvedAt,
          userName: users.userName,
        })
        .from(solves)
        .innerJoin(participations, eq(participations.id, solves.participationId))
        .innerJoin(submissions, eq(submissions.id, solves.submissionId))
        .leftJoin(users, eq(users.id, submissions.userId))
        .where(and(inArray(solves.challengeId, challengeIds), eq(participations.status, 'Accepted')))
    : [];
  return buildScoreboard(game, challengeRows, teamRows, solveRows, cutoff);
}

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
  solvedAt: Date;
  userName: string | null;
}

/** The pure part: ranks, scores, bloods and timelines from rows (also used by the bench). */
export function buildScoreboard(
  game: Pick<GameRow, 'bloodBonus'>,
  challengeRows: Array<typeof challenges.$inferSelect>,
  teamRows: TeamInput[],
  solveRows: SolveInput[],
  cutoff: Date,
): ScoreboardModel {
  const cutoffMs = cutoff.getTime();
  const teamsByParticipation = new Map(teamRows.map((team) => [team.participationId, team]));
  const counted = solveRows
    .filter((solve) => solve.solvedAt.getTime() < cutoffMs && teamsByParticipation.has(solve.participationId))
    .sort((a, b) => a.solvedAt.getTime() - b.solvedAt.getTime() || a.submissionId - b.submissionId);

  const solvesByChallenge = new Map<number, SolveInput[]>();
  for (const solve of counted) {
    const list = solvesByChallenge.get(solve.challengeId) ?? [];
    list.push(solve);
    solvesByChallenge.set(solve.challengeId, list);
  }

  interface Row {
    item: ScoreboardItem;
    lastMs: number;
    steps: Array<{ time: number; gain: number }>;
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
      steps: [],
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
          submitTimeUtc: solve.solvedAt.getTime(),
        });
      }
      const time = solve.solvedAt.getTime();
      row.item.solvedChallenges.push({
        id: challenge.id,
        score: earned,
        type: blood ?? 'Normal',
        userName: solve.userName,
        time,
      });
      row.item.score += earned;
      row.steps.push({ time, gain: earned });
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
      const items = [...row.steps]
        .sort((a, b) => a.time - b.time)
        .map((step) => ({ time: step.time, score: (total += step.gain) }));
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
