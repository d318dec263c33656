import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../../db/client';
import type { AnswerResult } from '../../../db/schema/enums';
import { bus } from '../../../lib/bus';
import {
  decide,
  flagSubmitValues,
  mayBeCheat,
  maySolve,
  type Decision,
  type FlagFacts,
  type JudgeContext,
} from './decide';
import { foreignFlags, lockChallenges, lockSubmissions, readSolves, type LockedSubmission } from './reads';
import { writeJudgement, type JudgementWrites, type WrittenNotice } from './writes';

export interface Judgement {
  status: AnswerResult;
  gameId: number;
  /** A first solve before the end: the scoreboard must be regenerated. */
  solved: boolean;
  /** When the submission was stored (ms), for the judge-lag metric. */
  submittedAt: number;
}

interface Judged {
  row: LockedSubmission;
  decision: Decision;
}

const unique = <T>(values: T[]) => [...new Set(values)];
const ownFlags = (row: LockedSubmission) => ({
  static: row.staticFlag === null ? [] : [row.staticFlag],
  own: row.ownFlag,
});

/**
 * Judges a batch of submissions in one transaction (reference §5.7), in submission order: lock,
 * decide, write, then announce once committed. Each row is locked and must still be FlagSubmitted,
 * so judging twice (a re-queue after a crash, two instances) changes nothing. Every challenge the
 * batch touches is locked first, in id order (no deadlock between batches), so solve order,
 * `acceptedCount` and the blood announced live all follow commit order. What each verdict is, is
 * `decide`'s alone (decide.ts); a batch is four statements between BEGIN and COMMIT, five with a
 * wrong dynamic answer.
 */
export async function judgeSubmissions(db: Database, ids: number[]): Promise<Map<number, Judgement>> {
  let outcome: { judged: Judged[]; eventAt: number; notices: WrittenNotice[] } | undefined;
  await db.transaction(async (tx) => {
    // The verdict need not wait for the WAL flush: should the database crash before it reaches the
    // disk, the submissions are FlagSubmitted again and judged anew at start-up. The acknowledgement
    // (intake.repository.ts) keeps the flush, as it must.
    // The locking read is a named statement joining seven tables; left to choose, PostgreSQL planned
    // it afresh for every batch (a custom plan: 9–16 ms in the bind, against 0.1–2 ms to run it, in
    // the first-solve burst of the game bench), so its one generic plan is reused instead.
    await tx.execute(
      sql`select set_config('synchronous_commit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)`,
    );
    const rows = await lockSubmissions(tx, ids);
    if (rows.length === 0) return;
    const judged = await decideAll(tx, rows);
    const writes = writesOf(judged);
    const written = await writeJudgement(tx, writes);
    // Under the challenge locks nothing else inserts solves, so every one lands; if not, retry the batch.
    if (written.solved !== writes.solves.length) throw new Error('a solve conflicted under the challenge lock');
    outcome = { judged, eventAt: written.eventAt ?? Date.now(), notices: written.notices };
  });
  if (!outcome) return new Map();
  announce(outcome.judged, outcome.eventAt, outcome.notices);
  return new Map(
    outcome.judged.map(({ row, decision }) => [
      row.facts.id,
      {
        status: decision.verdict,
        gameId: row.gameId,
        solved: decision.solve !== undefined,
        submittedAt: row.facts.submittedAt,
      },
    ]),
  );
}

/** Locks the challenges, reads the solve state and the flags `decide` needs, then decides each row in order. */
async function decideAll(tx: Db, rows: LockedSubmission[]): Promise<Judged[]> {
  const live = rows.filter((row) => row.facts.hasInstance && row.facts.challenge.enabled);
  const challenges = await lockChallenges(
    tx,
    unique(live.map((row) => row.facts.challenge.id)).sort((a, b) => a - b),
  );
  const solving = live.filter((row) => maySolve(row.facts, ownFlags(row)));
  const solved = solving.length
    ? await readSolves(
        tx,
        challenges,
        unique(solving.map((row) => row.facts.challenge.id)),
        unique(solving.map((row) => row.facts.participation.id)),
      )
    : new Set<string>();
  const suspects = live.filter((row) => mayBeCheat(row.facts, ownFlags(row)));
  const foreign = await foreignFlags(
    tx,
    unique(suspects.map((row) => row.facts.challenge.id)),
    unique(suspects.map((row) => row.facts.answer)),
  );
  let context: JudgeContext = { now: Date.now(), challenges, solved };
  return rows.map((row) => {
    const flags: FlagFacts = { ...ownFlags(row), others: foreign.get(row.facts.challenge.id) ?? [] };
    const decision = decide(row.facts, flags, context);
    context = decision.next;
    return { row, decision };
  });
}

/** The decisions as rows to write. */
function writesOf(judged: Judged[]): JudgementWrites {
  const writes: JudgementWrites = {
    solves: [],
    verdicts: [],
    counters: [],
    cheats: [],
    notices: [],
    events: [],
  };
  const counters = new Map<number, { id: number; solved: number }>();
  for (const { row, decision } of judged) {
    const { facts } = row;
    writes.verdicts.push({ id: facts.id, status: decision.verdict });
    if (decision.verdict === 'NotFound') continue;
    if (decision.solve) {
      const counter = counters.get(facts.challenge.id) ?? { id: facts.challenge.id, solved: 0 };
      counters.set(facts.challenge.id, counter);
      counter.solved += 1;
      writes.solves.push(decision.solve);
    }
    if (decision.cheatSource) {
      writes.cheats.push({
        submissionId: facts.id,
        gameId: row.gameId,
        submitParticipationId: facts.participation.id,
        sourceParticipationId: decision.cheatSource.participationId,
      });
    }
    for (const event of decision.events) {
      if (event.kind === 'notice') writes.notices.push({ gameId: row.gameId, type: event.type, values: event.values });
      else writes.events.push({ gameId: row.gameId, ...event, userId: row.userId, teamId: row.teamId });
    }
  }
  writes.counters = [...counters.values()];
  return writes;
}

/** After commit: the events and blood notices to the hubs, each verdict to the monitors, then the boards. */
function announce(judged: Judged[], eventAt: number, notices: WrittenNotice[]): void {
  let next = 0;
  const boards = new Set<number>();
  for (const { row, decision } of judged) {
    if (decision.verdict === 'NotFound') continue;
    const { gameId, userName: user } = row;
    const team = row.facts.participation.teamName;
    for (const event of decision.events) {
      if (event.kind === 'event') {
        bus.emit('gameEvent', { gameId, event: { type: event.type, values: event.values, time: eventAt, user, team } });
      } else {
        const notice = notices[next++]!;
        bus.emit('noticePublished', { gameId, notice });
      }
    }
    bus.emit('submissionJudged', {
      gameId,
      submission: {
        answer: row.facts.answer,
        status: decision.verdict,
        time: row.facts.submittedAt,
        user,
        team,
        challenge: row.facts.challenge.title,
      },
    });
    if (decision.solve) boards.add(gameId);
  }
  for (const gameId of boards) bus.emit('scoreboardChanged', { gameId, cause: 'solve' });
}

/**
 * A wrong answer the intake judged (intake.repository.ts), announced as `announce` would have: its
 * `FlagSubmit` event and its verdict to the monitors.
 */
export function announceWrongAnswer(wrong: {
  gameId: number;
  challengeId: number;
  challengeTitle: string;
  answer: string;
  at: number;
  userName: string;
  teamName: string;
}): void {
  const { gameId, at: time, userName: user, teamName: team, challengeTitle: challenge } = wrong;
  const values = flagSubmitValues('WrongAnswer', wrong.answer, { id: wrong.challengeId, title: challenge });
  bus.emit('gameEvent', { gameId, event: { type: 'FlagSubmit', values, time, user, team } });
  bus.emit('submissionJudged', {
    gameId,
    submission: { answer: wrong.answer, status: 'WrongAnswer', time, user, team, challenge },
  });
}
