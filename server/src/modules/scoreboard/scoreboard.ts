import { and, eq, sql } from 'drizzle-orm';
import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import { userRows } from '../accounts/read-models';
import { challengeRows } from '../challenges/read-models';
import { participationRows } from '../participations/read-models';
import { solveRows, submissionRows } from '../submissions/read-models';
import { teamRows } from '../teams/read-models';
import { challengeCategories, type ChallengeCategory } from '../../db/schema/enums';
import { bloodScore, type BloodRank } from '../../lib/blood-bonus';
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
 * The solves a board was built from, kept so the next build reads only the newer ones: with them,
 * how many solves of the game's enabled challenges there were and the sum of a hash of their
 * submission ids (their fingerprint), and the highest submission id among them.
 */
export interface SolveSnapshot {
  solves: SolveInput[];
  count: number;
  fingerprint: number;
  lastSubmissionId: number;
  /** When read in full (Unix ms): `loadScoreboardRows` reads in full again after FULL_READ_MS. */
  fullReadAt: number;
}

/**
 * How long a snapshot's solves are reused. What they carry besides the solve itself (the solver's
 * user name) is read only when a solve is new, so a renamed user shows on the board within this.
 */
const FULL_READ_MS = 60_000;

type PackedSolve = [number, number, number, number, string | null];
const unpack = (json: string): SolveInput[] =>
  (JSON.parse(json) as PackedSolve[]).map(([participationId, challengeId, submissionId, solvedAt, userName]) => ({
    participationId,
    challengeId,
    submissionId,
    solvedAt,
    userName,
  }));

// The board's solves: those of the game's enabled challenges, each as one JSON array (times as
// Unix ms, no dates to parse: one string to parse instead of 30,000 rows to map), with the user
// name of its submission. The fingerprint sums a 32-bit hash per submission id: two sets of solves
// of the same size share it by chance about once in four billion.
const countedSolves = (gameId: number) => sql`
  select ${solve.participationId} as participation_id, ${solve.challengeId} as challenge_id,
    ${solve.submissionId} as submission_id, ${solve.solvedAt} as solved_at
  from ${solve}
  where ${solve.challengeId} in (
    select ${challenge.id} from ${challenge} where ${challenge.gameId} = ${gameId} and ${challenge.isEnabled}
  )`;
const packedSolves = sql`coalesce(json_agg(json_build_array(
    s.participation_id, s.challenge_id, s.submission_id, floor(extract(epoch from s.solved_at) * 1000), ${user.userName}
  )), '[]')::text`;
// The submissions joined for user names are the game's only (its index, not the whole table).
const withUserNames = (gameId: number) => sql`
  join ${submission} on ${submission.id} = s.submission_id and ${submission.gameId} = ${gameId}
  left join ${user} on ${user.id} = ${submission.userId}`;

type SolveRead = {
  count: number;
  fingerprint: number;
  solves: string;
};

/** Every counted solve of the game, with its fingerprint. */
async function readAllSolves(db: Db, gameId: number): Promise<SolveSnapshot> {
  const [row] = (
    await db.execute<SolveRead>(sql`
      with s as (${countedSolves(gameId)})
      select ${packedSolves} as solves, count(*)::int as count,
        coalesce(sum(hashint4(s.submission_id)), 0)::float8 as fingerprint
      from s ${withUserNames(gameId)}`)
  ).rows;
  const solves = unpack(row!.solves);
  return {
    solves,
    count: Number(row!.count),
    fingerprint: Number(row!.fingerprint),
    lastSubmissionId: solves.reduce((last, each) => Math.max(last, each.submissionId), 0),
    fullReadAt: Date.now(),
  };
}

/**
 * The solves of `previous` and those with a higher submission id, in one statement that also
 * fingerprints every counted solve: if the two together are not every counted solve (a solve was
 * removed, or one with a lower id was committed after `previous` was read: judged on another
 * instance, or by a batch that overtook it), undefined, and the caller reads them all.
 */
async function readNewSolves(db: Db, gameId: number, previous: SolveSnapshot): Promise<SolveSnapshot | undefined> {
  const last = previous.lastSubmissionId;
  const [row] = (
    await db.execute<SolveRead & { new_count: number; new_fingerprint: number }>(sql`
      with counted as materialized (${countedSolves(gameId)}),
      totals as (
        select count(*)::int as count, coalesce(sum(hashint4(submission_id)), 0)::float8 as fingerprint,
          count(*) filter (where submission_id > ${last})::int as new_count,
          coalesce(sum(hashint4(submission_id)) filter (where submission_id > ${last}), 0)::float8 as new_fingerprint
        from counted
      )
      select totals.*, (
        select ${packedSolves} from counted s ${withUserNames(gameId)} where s.submission_id > ${last}
      ) as solves
      from totals`)
  ).rows;
  const added = unpack(row!.solves);
  const count = Number(row!.count);
  const fingerprint = Number(row!.fingerprint);
  if (
    added.length !== Number(row!.new_count) ||
    previous.count + added.length !== count ||
    previous.fingerprint + Number(row!.new_fingerprint) !== fingerprint
  )
    return undefined;
  return {
    solves: added.length ? previous.solves.concat(added) : previous.solves,
    count,
    fingerprint,
    lastSubmissionId: added.reduce((most, each) => Math.max(most, each.submissionId), last),
    fullReadAt: previous.fullReadAt,
  };
}

/**
 * What a board is built from, in lean queries run side by side: enabled challenges, Accepted teams,
 * and the solves of those challenges. Given the snapshot of the last build (`previous`), only the
 * solves newer than it are read, unless the fingerprint shows the snapshot is no longer a prefix
 * of the solves or it is older than FULL_READ_MS. On the game bench's board of 4,000 teams and
 * 16,000 solves the rows took a median 53 ms to read with every solve, 12–18 ms with only the new
 * ones (the solves' statement alone, about 32 ms against 7: the join for user names was the cost);
 * the join grows with the game's submissions, the check only with its solves.
 * Solves of other participations are dropped by the build, which keeps only the teams it was given.
 */
export async function loadScoreboardRows(
  db: Db,
  gameId: number,
  previous?: SolveSnapshot,
): Promise<ScoreboardRows & { snapshot: SolveSnapshot }> {
  const reuse = previous && Date.now() - previous.fullReadAt < FULL_READ_MS;
  const [challengeList, teamList, newer] = await Promise.all([
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
    reuse ? readNewSolves(db, gameId, previous) : undefined,
  ]);
  const snapshot = newer ?? (await readAllSolves(db, gameId));
  return { challenges: challengeList, teams: teamList, solves: snapshot.solves, snapshot };
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
  // Once frozen, its time is the freeze's: a new time with each solve would have told whoever polls
  // it (its ETag changing with the time) when the solves it hides were made.
  const frozen =
    game.freezeAt && game.freezeAt < game.endAt
      ? {
          ...buildScoreboard(game, rows.challenges, rows.teams, rows.solves, cutoffOf(game, game.freezeAt)),
          freezeTime: game.freezeAt.getTime(),
          updateTimeUtc: Math.min(live.updateTimeUtc, game.freezeAt.getTime()),
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
      const earned = blood ? bloodScore(score, game.bloodBonus, blood) : score;
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
export function groupByCategory<T extends { category: ChallengeCategory; title: string; id: number }>(
  list: T[],
): Partial<Record<ChallengeCategory, T[]>> {
  const grouped: Partial<Record<ChallengeCategory, T[]>> = {};
  for (const category of challengeCategories) {
    // By title, then id: two challenges of one title keep their order from one build to the next.
    const items = list
      .filter((item) => item.category === category)
      .sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
    if (items.length) grouped[category] = items;
  }
  return grouped;
}
