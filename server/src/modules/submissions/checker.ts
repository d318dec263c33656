import { EventEmitter } from 'node:events';
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { submissions } from '../../db/schema/submissions';
import { judgeSubmissions, type Judgement } from './judge/judge';

/**
 * Most submissions one judging transaction takes: a bound on one transaction's locks and statement
 * size for a start-up backlog, not a tuning. Under a stream one worker's batch is whatever arrived
 * while the last one ran: in the game bench (1,000 teams, 15,000 submissions) 222 batches, median
 * 61, 90th percentile 103, largest 173, none at this bound.
 */
const BATCH = 200;
// No delay between batches. A 30 ms pause, meant to grow them, measured no better in the game bench
// (1,000 teams, adjacent runs on this busy 2-core machine, rounds of one figure spreading by ±0.04):
// with it wrong flags 0.137 × hello-world, all judged 3.3 s after the first, first solves 0.068 ×;
// without it 0.132 ×, 3.8 s, 0.098 ×, and in a third run 0.154 ×, 4.3 s, 0.103 ×.

/** What the judge queue reports (the metrics plugin listens). */
export interface FlagCheckerEvents {
  /** A batch whose judgement committed. */
  judged: [judgements: Map<number, Judgement>];
  /** The queue has just emptied: nothing waits or is being judged. */
  drained: [];
  /** Work again after the queue had emptied: a submission came in. */
  resumed: [];
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
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: Database,
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
    if (this.running === 0 && this.queue.length === 0 && !this.stopped) this.report('resumed');
    this.queued.add(id);
    this.queue.push(id);
    this.pump();
  }

  /**
   * Verdicts reached without the queue (the intake judges wrong answers to static challenges):
   * reported as `judged` like the queue's own, so the metrics count every verdict.
   */
  judgedElsewhere(judgements: Map<number, Judgement>): void {
    this.report('judged', judgements);
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
    while (!this.stopped && this.running < this.workers && this.queue.length > 0) {
      // A worker takes everything waiting (up to BATCH): under load one transaction judges many.
      const ids = this.queue.splice(0, BATCH);
      this.running += 1;
      void this.judge(ids).finally(() => {
        this.running -= 1;
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
