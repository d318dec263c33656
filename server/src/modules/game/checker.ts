import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
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

export interface Judgement {
  status: AnswerResult;
  gameId: number;
  /** A first solve before the end: the scoreboard must be regenerated. */
  solved: boolean;
}

/**
 * Judges one submission in one transaction (reference §5.7). The submission row is locked and must
 * still be FlagSubmitted, so judging twice (a re-queue after a crash, two instances) changes nothing.
 * The scored solve is a `solves` row inserted with ON CONFLICT DO NOTHING: a returned row is the
 * team's first solve, a conflict means it had already solved the challenge, whatever the race.
 * The challenge row is locked before the solve so `acceptedCount`, the blood type announced live and
 * the solve order the scoreboard derives bloods from all follow commit order.
 */
export async function judgeSubmission(db: Db, id: number): Promise<Judgement | undefined> {
  const after: Array<() => void> = [];
  const result = await db.transaction(async (tx) => {
    // One round trip for everything judging reads; the submission row stays locked until commit.
    const [row] = await tx
      .select({
        submission: submissions,
        game: games,
        challenge: challenges,
        participation: { id: participations.id, status: participations.status, teamName: teams.name },
        instance: gameInstances,
        userName: users.userName,
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
      .where(eq(submissions.id, id))
      .for('update', { of: submissions });
    if (!row || row.submission.status !== 'FlagSubmitted') return undefined;
    const { submission, game, challenge, participation, instance } = row;
    const user = row.userName === null ? undefined : { userName: row.userName };
    if (!instance || !challenge.isEnabled) {
      await tx.update(submissions).set({ status: 'NotFound' }).where(eq(submissions.id, id));
      return { status: 'NotFound' as const, gameId: submission.gameId, solved: false };
    }

    const answer = submission.answer;
    let correct: boolean;
    if (challenge.type === 'DynamicContainer') correct = instance.flag !== null && instance.flag === answer;
    else if (challenge.type === 'DynamicAttachment') {
      const [own] = instance.flagId
        ? await tx.select({ flag: flags.flag }).from(flags).where(eq(flags.id, instance.flagId))
        : [];
      correct = own?.flag === answer;
    } else {
      const [match] = await tx
        .select({ id: flags.id })
        .from(flags)
        .where(and(eq(flags.challengeId, challenge.id), eq(flags.flag, answer)))
        .limit(1);
      correct = match !== undefined;
    }

    let status: AnswerResult = correct ? 'Accepted' : 'WrongAnswer';
    let solved = false;
    let bloodIndex = -1;
    let sourceTeam: string | undefined;
    const beforeEnd = submission.submittedAt < game.endAt;
    if (correct && beforeEnd && participation.status === 'Accepted') {
      // Solve order must be commit order (the blood announced live is the blood on the board), so a
      // solve is never timed before the challenge's latest one: at least 1 ms after it, else at the
      // submission's time. The challenge row is locked first, so judges of one challenge take turns.
      const [locked] = await tx
        .select({ acceptedCount: challenges.acceptedCount })
        .from(challenges)
        .where(eq(challenges.id, challenge.id))
        .for('update');
      // A separate statement on purpose: in READ COMMITTED a statement that waited for the lock keeps
      // its old snapshot for subqueries, so it would miss the solve committed by the judge before us.
      const [latestRow] = await tx
        .select({ latest: sql<string | null>`max(${solves.solvedAt})` })
        .from(solves)
        .where(eq(solves.challengeId, challenge.id));
      const latest = latestRow?.latest ?? null;
      const latestMs = latest ? new Date(latest).getTime() : Number.NEGATIVE_INFINITY;
      const solvedAt = new Date(Math.max(submission.submittedAt.getTime(), latestMs + 1));
      const index = challenge.disableBloodBonus ? -1 : locked!.acceptedCount;
      const type = index >= 0 && index < 3 ? (BLOOD_NOTICES[index] as 'FirstBlood') : 'Normal';
      const landed = await tx
        .insert(solves)
        .values({ participationId: participation.id, challengeId: challenge.id, submissionId: id, solvedAt, type })
        .onConflictDoNothing()
        .returning({ submissionId: solves.submissionId });
      if (landed.length > 0) {
        solved = true;
        bloodIndex = type === 'Normal' ? -1 : index;
        await tx.update(gameInstances).set({ isSolved: true }).where(eq(gameInstances.id, instance.id));
        await tx
          .update(challenges)
          .set({ acceptedCount: sql`${challenges.acceptedCount} + 1` })
          .where(eq(challenges.id, challenge.id));
      }
    }
    if (!correct && (challenge.type === 'DynamicAttachment' || challenge.type === 'DynamicContainer')) {
      // Another team's dynamic flag: whose instance owns this answer?
      const [source] = await tx
        .select({ participationId: gameInstances.participationId, teamName: teams.name })
        .from(gameInstances)
        .innerJoin(participations, eq(participations.id, gameInstances.participationId))
        .innerJoin(teams, eq(teams.id, participations.teamId))
        .leftJoin(flags, eq(flags.id, gameInstances.flagId))
        .where(
          and(
            eq(gameInstances.challengeId, challenge.id),
            ne(gameInstances.participationId, participation.id),
            or(eq(gameInstances.flag, answer), eq(flags.flag, answer)),
          ),
        )
        .limit(1);
      if (source) {
        status = 'CheatDetected';
        sourceTeam = source.teamName;
        await tx.insert(cheatInfo).values({
          submissionId: id,
          gameId: game.id,
          submitParticipationId: participation.id,
          sourceParticipationId: source.participationId,
        });
      }
    }

    await tx.update(submissions).set({ status }).where(eq(submissions.id, id));
    await tx
      .update(challenges)
      .set({ submissionCount: sql`${challenges.submissionCount} + 1` })
      .where(eq(challenges.id, challenge.id));
    const events = [
      { type: 'FlagSubmit' as const, values: [status, answer, challenge.title, String(challenge.id)] },
      ...(sourceTeam !== undefined
        ? [{ type: 'CheatDetected' as const, values: [challenge.title, participation.teamName, sourceTeam] }]
        : []),
    ];
    const inserted = await tx
      .insert(gameEvents)
      .values(
        events.map((event) => ({ ...event, gameId: game.id, userId: submission.userId, teamId: submission.teamId })),
      )
      .returning();
    for (const event of inserted) {
      after.push(() =>
        emitGame('event', {
          gameId: game.id,
          event: {
            type: event.type,
            values: event.values,
            time: event.at.getTime(),
            user: user?.userName ?? '',
            team: participation.teamName,
          },
        }),
      );
    }
    if (bloodIndex >= 0 && bloodIndex < 3 && new Date() < game.endAt) {
      const [notice] = await tx
        .insert(gameNotices)
        .values({
          gameId: game.id,
          type: BLOOD_NOTICES[bloodIndex]!,
          values: [participation.teamName, challenge.title],
        })
        .returning();
      after.push(() =>
        emitGame('notice', {
          gameId: game.id,
          notice: { id: notice!.id, type: notice!.type, values: notice!.values, time: notice!.publishedAt.getTime() },
        }),
      );
    }
    after.push(() =>
      emitGame('submission', {
        gameId: game.id,
        submission: {
          answer,
          status,
          time: submission.submittedAt.getTime(),
          user: user?.userName ?? '',
          team: participation.teamName,
          challenge: challenge.title,
        },
      }),
    );
    return { status, gameId: game.id, solved };
  });
  for (const run of after) run();
  if (result?.solved) emitGame('scoreboardChanged', { gameId: result.gameId });
  return result;
}

/**
 * The durable judge queue. The database is the queue's truth: a submission is committed as
 * FlagSubmitted before its id is acknowledged, the in-memory list only orders the work, and
 * `start()` re-queues every FlagSubmitted row, so a crash between acknowledging and judging loses
 * nothing. Several workers judge in parallel; on PGlite (one connection) they simply take turns.
 */
export class FlagChecker {
  private readonly queue: number[] = [];
  private readonly queued = new Set<number>();
  private running = 0;
  private stopped = true;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: Db,
    private readonly workers: number,
    private readonly onError: (error: unknown, id: number) => void,
  ) {}

  async start(pending: number[]): Promise<void> {
    this.stopped = false;
    for (const id of pending) this.enqueue(id);
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

  /** Stops taking work and waits for judgements in flight; queued ids stay FlagSubmitted for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    this.queued.clear();
    if (this.running > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (!this.stopped && this.running < this.workers && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.running += 1;
      void this.judge(id).finally(() => {
        this.running -= 1;
        this.queued.delete(id);
        this.pump();
        if (this.running === 0 && (this.queue.length === 0 || this.stopped)) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
    }
  }

  private async judge(id: number): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await judgeSubmission(this.db, id);
        return;
      } catch (error) {
        // A serialisation conflict or a lost connection: try again; the row stays FlagSubmitted otherwise.
        if (attempt === 2 || this.stopped) this.onError(error, id);
      }
    }
  }
}

export const unjudgedIds = async (db: Db, ids?: number[]): Promise<number[]> => {
  const rows = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.status, 'FlagSubmitted'), ids ? inArray(submissions.id, ids) : undefined))
    .orderBy(submissions.id);
  return rows.map((row) => row.id);
};
