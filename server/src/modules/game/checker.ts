import { EventEmitter } from 'node:events';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  challenges,
  cheatInfo,
  flags,
  gameEvents,
  gameInstances,
  gameNotices,
  games,
  participations,
  solves,
  submissions,
  teams,
  users,
} from '../../db/schema';
import type { AnswerResult, NoticeType } from '../../db/schema/enums';
import { emitGame } from './game.events';

const BLOOD_NOTICES: NoticeType[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood'];
/** Most submissions one judging transaction takes. */
const BATCH = 200;
/**
 * Under sustained load the next batch starts at least this long after the last one ended, so one
 * transaction judges many submissions instead of a few each (a judging transaction costs about the
 * same for 5 as for 50, and it competes with acknowledgements for the CPU). After a quiet spell a
 * submission is judged at once.
 */
const COALESCE_MS = 30;

export interface Judgement {
  status: AnswerResult;
  gameId: number;
  /** A first solve before the end: the scoreboard must be regenerated. */
  solved: boolean;
  /** When the submission was stored (ms), for the judge-lag metric. */
  submittedAt: number;
}

/** What the judge queue reports (the metrics plugin listens). */
export interface FlagCheckerEvents {
  /** A batch whose judgement committed. */
  judged: [judgements: Map<number, Judgement>];
  /** The queue has just emptied: nothing waits or is being judged. */
  drained: [];
}

type Row = Awaited<ReturnType<typeof lockSubmissions>>[number];
/** A blood notice as the judgement's write returns it. */
interface NoticeRow {
  id: number;
  type: NoticeType;
  values: string[];
  time: number;
}

/**
 * The submissions still FlagSubmitted among `ids`, locked, with everything judging reads (one round
 * trip): whether a static flag of the challenge equals the answer, and the attachment flag assigned
 * to the team's instance.
 */
function lockSubmissions(tx: Db, ids: number[]) {
  return (
    tx
      .select({
        submission: {
          id: submissions.id,
          answer: submissions.answer,
          submittedAt: submissions.submittedAt,
          userId: submissions.userId,
          teamId: submissions.teamId,
          gameId: submissions.gameId,
        },
        gameEndAt: games.endAt,
        challenge: {
          id: challenges.id,
          title: challenges.title,
          type: challenges.type,
          isEnabled: challenges.isEnabled,
          disableBloodBonus: challenges.disableBloodBonus,
        },
        participation: { id: participations.id, status: participations.status, teamName: teams.name },
        instance: { id: gameInstances.id, flag: gameInstances.flag, flagId: gameInstances.flagId },
        userName: users.userName,
        staticMatch: sql<boolean>`exists (select 1 from ${flags} f where f.challenge_id = ${submissions.challengeId} and f.flag = ${submissions.answer})`,
        attachmentFlag: sql<string | null>`(select f.flag from ${flags} f where f.id = ${gameInstances.flagId})`,
      })
      .from(submissions)
      .innerJoin(games, eq(games.id, submissions.gameId))
      .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
      .innerJoin(participations, eq(participations.id, submissions.participationId))
      .innerJoin(teams, eq(teams.id, participations.teamId))
      .leftJoin(
        gameInstances,
        and(
          eq(gameInstances.participationId, submissions.participationId),
          eq(gameInstances.challengeId, submissions.challengeId),
        ),
      )
      .leftJoin(users, eq(users.id, submissions.userId))
      // One array parameter and a named statement: the text never changes, so each connection parses
      // it once and PostgreSQL can reuse its plan (planning a join this wide per batch cost more than running it).
      .where(
        and(sql`${submissions.id} = any(${sql.placeholder('ids')}::int[])`, eq(submissions.status, 'FlagSubmitted')),
      )
      .orderBy(submissions.id)
      // NO KEY UPDATE: the judge never changes a key, so inserts referencing these rows need not wait.
      .for('no key update', { of: submissions })
      .prepare('judge_lock_submissions')
      .execute({ ids })
  );
}

const pairKey = (a: number, b: number | string) => `${a}\u0000${b}`;

/** Which answers are right: container flags from the instance, attachment and static flags from `flags`. */
function correctAnswers(rows: Row[]): Set<number> {
  const correct = new Set<number>();
  for (const row of rows) {
    const answer = row.submission.answer;
    const type = row.challenge.type;
    const right =
      type === 'DynamicContainer'
        ? row.instance!.flag !== null && row.instance!.flag === answer
        : type === 'DynamicAttachment'
          ? row.attachmentFlag !== null && row.attachmentFlag === answer
          : row.staticMatch === true;
    if (right) correct.add(row.submission.id);
  }
  return correct;
}

/** Wrong dynamic answers that are another team's flag: the owner's participation and team name. */
async function cheatSources(tx: Db, rows: Row[]): Promise<Map<number, { participationId: number; teamName: string }>> {
  const sources = new Map<number, { participationId: number; teamName: string }>();
  if (rows.length === 0) return sources;
  const answers = [...new Set(rows.map((row) => row.submission.answer))];
  const owners = await tx
    .select({
      challengeId: gameInstances.challengeId,
      participationId: gameInstances.participationId,
      teamName: teams.name,
      flag: gameInstances.flag,
      attachmentFlag: flags.flag,
    })
    .from(gameInstances)
    .innerJoin(participations, eq(participations.id, gameInstances.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .leftJoin(flags, eq(flags.id, gameInstances.flagId))
    .where(
      and(
        inArray(gameInstances.challengeId, [...new Set(rows.map((row) => row.challenge.id))]),
        or(inArray(gameInstances.flag, answers), inArray(flags.flag, answers)),
      ),
    );
  for (const row of rows) {
    const owner = owners.find(
      (candidate) =>
        candidate.challengeId === row.challenge.id &&
        candidate.participationId !== row.participation.id &&
        (candidate.flag === row.submission.answer || candidate.attachmentFlag === row.submission.answer),
    );
    if (owner) sources.set(row.submission.id, { participationId: owner.participationId, teamName: owner.teamName });
  }
  return sources;
}

/**
 * Judges a batch of submissions in one transaction (reference §5.7), in submission order. Each row
 * is locked and must still be FlagSubmitted, so judging twice (a re-queue after a crash, two
 * instances) changes nothing. Every challenge the batch touches is locked first, in id order (no
 * deadlock between batches), so solve order, `acceptedCount` and the blood announced live all
 * follow commit order. A team's first correct answer becomes its `solves` row (the primary key
 * keeps it unique whatever the race); a solve is timed at its submission, but never before the
 * challenge's latest solve + 1 ms.
 */
export async function judgeSubmissions(db: Db, ids: number[]): Promise<Map<number, Judgement>> {
  const after: Array<() => void> = [];
  const judged = new Map<number, Judgement>();
  await db.transaction(async (tx) => {
    // The verdict need not wait for the WAL flush: should the database crash before it reaches the
    // disk, the submissions are FlagSubmitted again and judged anew at start-up. The acknowledgement
    // (intake.ts) keeps the flush, as it must.
    await tx.execute(sql`select set_config('synchronous_commit', 'off', true)`);
    const rows = await lockSubmissions(tx, ids);
    if (rows.length === 0) return;
    const statuses = new Map<number, AnswerResult>();
    const live = rows.filter((row) => {
      if (row.instance && row.challenge.isEnabled) return true;
      statuses.set(row.submission.id, 'NotFound');
      return false;
    });
    const correct = correctAnswers(live);

    // Lock every challenge whose counters change, in id order, and read the solve state under the lock.
    const challengeIds = [...new Set(live.map((row) => row.challenge.id))].sort((a, b) => a - b);
    const counters = new Map<number, { accepted: number; solvedNow: number; submitted: number; latest: number }>();
    if (challengeIds.length) {
      const locked = await tx
        .select({ id: challenges.id, acceptedCount: challenges.acceptedCount })
        .from(challenges)
        .where(inArray(challenges.id, challengeIds))
        .orderBy(challenges.id)
        // NO KEY UPDATE, not UPDATE: new submissions check their foreign key to the challenge with
        // KEY SHARE, which UPDATE would block for the whole judgement, holding up acknowledgements.
        .for('no key update');
      for (const row of locked)
        counters.set(row.id, {
          accepted: row.acceptedCount,
          solvedNow: 0,
          submitted: 0,
          latest: Number.NEGATIVE_INFINITY,
        });
    }
    const candidates = live.filter(
      (row) =>
        correct.has(row.submission.id) &&
        row.submission.submittedAt < row.gameEndAt &&
        row.participation.status === 'Accepted',
    );
    const solved = new Set<string>();
    if (candidates.length) {
      const solveChallenges = [...new Set(candidates.map((row) => row.challenge.id))];
      // Separate statements on purpose: in READ COMMITTED a statement that waited for the lock keeps
      // its old snapshot for subqueries, so it would miss a solve committed by the batch before us.
      const participationIds = [...new Set(candidates.map((row) => row.participation.id))];
      const state = await tx.execute<{
        challenge_id: number;
        participation_id: number | null;
        latest: number | null;
      }>(sql`
        select challenge_id, null::int as participation_id, floor(extract(epoch from max(solved_at)) * 1000)::float8 as latest
        from ${solves} where ${inArray(solves.challengeId, solveChallenges)} group by challenge_id
        union all
        select challenge_id, participation_id, null from ${solves}
        where ${inArray(solves.challengeId, solveChallenges)} and ${inArray(solves.participationId, participationIds)}`);
      for (const row of state.rows) {
        if (row.participation_id !== null) solved.add(pairKey(Number(row.participation_id), Number(row.challenge_id)));
        else if (row.latest !== null) counters.get(Number(row.challenge_id))!.latest = Number(row.latest);
      }
    }

    const newSolves: Array<typeof solves.$inferInsert> = [];
    const solvedInstances: number[] = [];
    const bloods = new Map<number, number>();
    for (const row of candidates) {
      const key = pairKey(row.participation.id, row.challenge.id);
      if (solved.has(key)) continue;
      solved.add(key);
      const counter = counters.get(row.challenge.id)!;
      const solvedAt = new Date(Math.max(row.submission.submittedAt.getTime(), counter.latest + 1));
      counter.latest = solvedAt.getTime();
      const index = row.challenge.disableBloodBonus ? -1 : counter.accepted + counter.solvedNow;
      counter.solvedNow += 1;
      const type = index >= 0 && index < 3 ? (BLOOD_NOTICES[index] as 'FirstBlood') : 'Normal';
      if (type !== 'Normal') bloods.set(row.submission.id, index);
      newSolves.push({
        participationId: row.participation.id,
        challengeId: row.challenge.id,
        submissionId: row.submission.id,
        solvedAt,
        type,
      });
      solvedInstances.push(row.instance!.id);
    }
    const wrongDynamic = live.filter(
      (row) =>
        !correct.has(row.submission.id) &&
        (row.challenge.type === 'DynamicAttachment' || row.challenge.type === 'DynamicContainer'),
    );
    const sources = await cheatSources(tx, wrongDynamic);
    for (const row of live) {
      statuses.set(
        row.submission.id,
        correct.has(row.submission.id) ? 'Accepted' : sources.has(row.submission.id) ? 'CheatDetected' : 'WrongAnswer',
      );
      counters.get(row.challenge.id)!.submitted += 1;
    }
    const cheats = live
      .filter((row) => sources.has(row.submission.id))
      .map((row) => ({
        submission_id: row.submission.id,
        game_id: row.submission.gameId,
        submit_participation_id: row.participation.id,
        source_participation_id: sources.get(row.submission.id)!.participationId,
      }));

    const events = live.flatMap((row) => {
      const status = statuses.get(row.submission.id)!;
      const source = sources.get(row.submission.id);
      const base = { gameId: row.submission.gameId, userId: row.submission.userId, teamId: row.submission.teamId };
      return [
        {
          ...base,
          type: 'FlagSubmit' as const,
          values: [status, row.submission.answer, row.challenge.title, String(row.challenge.id)],
        },
        ...(source
          ? [
              {
                ...base,
                type: 'CheatDetected' as const,
                values: [row.challenge.title, row.participation.teamName, source.teamName],
              },
            ]
          : []),
      ];
    });
    const verdicts = rows.map((row) => ({ id: row.submission.id, status: statuses.get(row.submission.id) }));
    const changes = [...counters].map(([id, counter]) => ({
      id,
      solved: counter.solvedNow,
      submitted: counter.submitted,
    }));
    const eventRows = events.map((event, n) => ({
      n,
      game_id: event.gameId,
      type: event.type,
      values: event.values,
      user_id: event.userId,
      team_id: event.teamId,
    }));
    const now = new Date();
    const bloodRows = live.filter((row) => bloods.has(row.submission.id) && now < row.gameEndAt);
    const noticeRows = bloodRows.map((row, n) => ({
      n,
      game_id: row.submission.gameId,
      type: BLOOD_NOTICES[bloods.get(row.submission.id)!]!,
      values: [row.participation.teamName, row.challenge.title],
    }));
    const solveRows = newSolves.map((solve) => ({
      participation_id: solve.participationId,
      challenge_id: solve.challengeId,
      submission_id: solve.submissionId,
      solved_at: solve.solvedAt.toISOString(),
      type: solve.type,
    }));
    // Every write of the judgement in one statement (one round trip): the solves, the solved
    // instances, the verdicts, the counters, the cheat records, the blood notices and the events.
    const json = (value: unknown) => sql`${JSON.stringify(value)}::json`;
    const written = await tx.execute<{ solved: number; at: number | null; notices: NoticeRow[] }>(sql`
      with new_solves as (
        insert into ${solves} (participation_id, challenge_id, submission_id, solved_at, type)
        select d.participation_id, d.challenge_id, d.submission_id, d.solved_at, d.type::submission_type
        from json_to_recordset(${json(solveRows)})
          as d(participation_id int, challenge_id int, submission_id int, solved_at timestamptz, type text)
        on conflict do nothing
        returning submission_id
      ), instances as (
        update ${gameInstances} set is_solved = true
        where id in (select value::int from json_array_elements_text(${json(solvedInstances)}))
      ), verdicts as (
        update ${submissions} s set status = d.status::answer_result
        from json_to_recordset(${json(verdicts)}) as d(id int, status text)
        where s.id = d.id
      ), counters as (
        update ${challenges} c
        set accepted_count = c.accepted_count + d.solved, submission_count = c.submission_count + d.submitted
        from json_to_recordset(${json(changes)}) as d(id int, solved int, submitted int)
        where c.id = d.id
      ), cheats as (
        insert into ${cheatInfo} (submission_id, game_id, submit_participation_id, source_participation_id)
        select * from json_to_recordset(${json(cheats)})
          as d(submission_id int, game_id int, submit_participation_id int, source_participation_id int)
      ), notices as (
        insert into ${gameNotices} (game_id, type, values)
        select d.game_id, d.type::notice_type, d.values
        from json_to_recordset(${json(noticeRows)}) as d(n int, game_id int, type text, values text[])
        order by d.n
        returning id, type, values, published_at
      ), events as (
        insert into ${gameEvents} (game_id, type, values, user_id, team_id)
        select e.game_id, e.type::event_type, e.values, e.user_id, e.team_id
        from json_to_recordset(${json(eventRows)})
          as e(n int, game_id int, type text, values text[], user_id uuid, team_id int)
        order by e.n
        returning at
      )
      select (select count(*) from new_solves)::int as solved,
        (select floor(extract(epoch from min(at)) * 1000)::float8 from events) as at,
        (select coalesce(json_agg(json_build_object(
            'id', id, 'type', type, 'values', values, 'time', floor(extract(epoch from published_at) * 1000)
          ) order by id), '[]'::json) from notices) as notices`);
    const result = written.rows[0]!;
    // Under the challenge locks nothing else inserts solves, so every one lands; if not, retry the batch.
    if (Number(result.solved) !== newSolves.length) throw new Error('a solve conflicted under the challenge lock');
    const eventAt = new Date(result.at !== null ? Number(result.at) : Date.now());
    // Identities follow the insert's order, which is bloodRows' order.
    const notices = result.notices;

    const noticeBySubmission = new Map(bloodRows.map((row, index) => [row.submission.id, notices[index]]));
    const names = new Map(rows.map((row) => [row.submission.id, row.userName ?? '']));
    const solvedBy = new Set(newSolves.map((solve) => solve.submissionId));
    for (const row of rows) {
      const id = row.submission.id;
      const status = statuses.get(id)!;
      const gameId = row.submission.gameId;
      judged.set(id, { status, gameId, solved: solvedBy.has(id), submittedAt: row.submission.submittedAt.getTime() });
      if (status === 'NotFound') continue;
      const user = names.get(id)!;
      const team = row.participation.teamName;
      const source = sources.get(id);
      after.push(() => {
        emitGame('event', {
          gameId,
          event: {
            type: 'FlagSubmit',
            values: [status, row.submission.answer, row.challenge.title, String(row.challenge.id)],
            time: eventAt.getTime(),
            user,
            team,
          },
        });
        if (source) {
          emitGame('event', {
            gameId,
            event: {
              type: 'CheatDetected',
              values: [row.challenge.title, team, source.teamName],
              time: eventAt.getTime(),
              user,
              team,
            },
          });
        }
        const notice = noticeBySubmission.get(id);
        if (notice) {
          emitGame('notice', {
            gameId,
            notice: { id: notice.id, type: notice.type, values: notice.values, time: Number(notice.time) },
          });
        }
        emitGame('submission', {
          gameId,
          submission: {
            answer: row.submission.answer,
            status,
            time: row.submission.submittedAt.getTime(),
            user,
            team,
            challenge: row.challenge.title,
          },
        });
      });
    }
  });
  for (const run of after) run();
  for (const gameId of new Set(
    [...judged.values()].filter((judgement) => judgement.solved).map((judgement) => judgement.gameId),
  )) {
    emitGame('scoreboardChanged', { gameId });
  }
  return judged;
}

/** One submission (a batch of one). */
export async function judgeSubmission(db: Db, id: number): Promise<Judgement | undefined> {
  return (await judgeSubmissions(db, [id])).get(id);
}

/**
 * The durable judge queue. The database is the queue's truth: a submission is committed as
 * FlagSubmitted before its id is acknowledged, the in-memory list only orders the work, and
 * `start()` re-queues every FlagSubmitted row, so a crash between acknowledging and judging loses
 * nothing. Each worker judges a batch of what is waiting per transaction; on PGlite (one
 * connection) workers simply take turns.
 */
export class FlagChecker {
  readonly events = new EventEmitter<FlagCheckerEvents>();
  private readonly queue: number[] = [];
  private readonly queued = new Set<number>();
  private running = 0;
  private stopped = true;
  private lastBatchEnd = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: Db,
    private readonly workers: number,
    private readonly onError: (error: unknown, id: number) => void,
  ) {}

  async start(pending: number[]): Promise<void> {
    this.stopped = false;
    // Queued together, then pumped once: the backlog goes out in full batches.
    for (const id of pending) {
      if (this.queued.has(id)) continue;
      this.queued.add(id);
      this.queue.push(id);
    }
    this.pump();
  }

  enqueue(id: number): void {
    if (this.queued.has(id)) return;
    this.queued.add(id);
    this.queue.push(id);
    this.pump();
  }

  /** Resolves once nothing is queued or being judged (tests and the bench wait on it). */
  idle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops taking work and waits for judgements in flight. Queued ids stay FlagSubmitted for the next
   * start (or another instance); they are returned so the caller can hand them over.
   */
  async stop(): Promise<number[]> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const left = this.queue.splice(0);
    this.queued.clear();
    if (this.running > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    return left;
  }

  /** A throwing listener must not fail (and so re-judge) a committed batch. */
  private report<K extends keyof FlagCheckerEvents>(event: K, ...args: FlagCheckerEvents[K]): void {
    try {
      (this.events.emit as (name: K, ...payload: FlagCheckerEvents[K]) => boolean)(event, ...args);
    } catch (error) {
      process.emitWarning(error instanceof Error ? error : String(error), { code: 'FLAG_CHECKER_LISTENER' });
    }
  }

  private pump(): void {
    if (this.timer) return;
    while (!this.stopped && this.running < this.workers && this.queue.length > 0) {
      const wait = this.lastBatchEnd + COALESCE_MS - Date.now();
      if (wait > 0 && this.queue.length < BATCH) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, wait);
        return;
      }
      // A worker takes everything waiting (up to BATCH): under load one transaction judges many.
      const ids = this.queue.splice(0, BATCH);
      this.running += 1;
      void this.judge(ids).finally(() => {
        this.running -= 1;
        this.lastBatchEnd = Date.now();
        for (const id of ids) this.queued.delete(id);
        this.pump();
        if (this.running === 0 && (this.queue.length === 0 || this.stopped)) {
          if (!this.stopped) this.report('drained');
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
    }
  }

  private async judge(ids: number[]): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        this.report('judged', await judgeSubmissions(this.db, ids));
        return;
      } catch (error) {
        // A serialisation conflict or a lost connection: try again. A batch that keeps failing is
        // judged one by one, so one bad submission cannot hold back the others.
        if (ids.length > 1 && attempt === 2) {
          for (const id of ids) await this.judge([id]);
          return;
        }
        if (attempt === 2 || this.stopped) {
          for (const id of ids) this.onError(error, id);
          if (this.stopped) return;
        }
      }
    }
  }
}

/**
 * Submissions still FlagSubmitted, oldest first: among `ids` when given, and only those acknowledged
 * before `submittedBefore` when given (the leftover pass leaves fresh ones to whoever queued them).
 */
export const unjudgedIds = async (db: Db, ids?: number[], submittedBefore?: Date): Promise<number[]> => {
  const rows = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        eq(submissions.status, 'FlagSubmitted'),
        ids ? inArray(submissions.id, ids) : undefined,
        submittedBefore ? lt(submissions.submittedAt, submittedBefore) : undefined,
      ),
    )
    .orderBy(submissions.id);
  return rows.map((row) => row.id);
};
