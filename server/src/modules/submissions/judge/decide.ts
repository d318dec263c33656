import type { AnswerResult, ChallengeType } from '../../../db/schema/enums';
import type { BloodRank } from '../../../lib/blood-bonus';

/**
 * The judge's decision (reference §5.7), apart from everything that reads or writes: no database,
 * no clock, no I/O. `judge.ts` locks the rows, asks `decide` about each submission in submission
 * order, carrying `next` forward, then writes what the decisions say. Everything a verdict depends
 * on is in the three arguments, so the table-driven tests
 * (tests/server/game/judge-decide.test.ts) cover every rule without a database.
 */

/** One submission as the judge sees it, joined with its challenge, participation and game. */
export interface SubmissionFacts {
  id: number;
  /** As stored: the route already trimmed it; from here on it is compared exactly. */
  answer: string;
  /** When it was acknowledged (Unix ms). */
  submittedAt: number;
  participation: { id: number; accepted: boolean; teamName: string };
  challenge: { id: number; title: string; type: ChallengeType; enabled: boolean; bloodBonus: boolean };
  /** Whether the team has an instance of the challenge (GZCTF: none means `NotFound`). */
  hasInstance: boolean;
  /** The game's end (Unix ms): a solve counts only if submitted before it. */
  gameEndAt: number;
  /** The scoreboard's freeze (Unix ms), if any: from then on players must not learn of new solves. */
  freezeAt: number | null;
}

/** Another team's dynamic flag of the same challenge (a match is cheating). */
export interface ForeignFlag {
  participationId: number;
  teamName: string;
  flag: string;
}

/**
 * The flags a submission is compared with. The caller may pass only those that can match (equal to
 * the answer): `decide` compares anyway, so a wider list never changes a verdict.
 */
export interface FlagFacts {
  /** The challenge's static flags (static types). */
  static: readonly string[];
  /** The flag assigned to the team's instance: the container's or the attachment's (dynamic types). */
  own: string | null;
  /** Other teams' dynamic flags of the challenge. */
  others: readonly ForeignFlag[];
}

/** A challenge's solve state under its lock, as the batch has changed it so far. */
export interface ChallengeState {
  /** Counted solves (`acceptedCount`): the next blood is this index. */
  accepted: number;
  /** The latest solve's time (Unix ms; -Infinity with none). */
  latest: number;
}

/** What `decide` carries from one submission to the next. */
export interface JudgeContext {
  /** The time the judgement runs (Unix ms): a blood is announced only before the game's end. */
  now: number;
  challenges: ReadonlyMap<number, ChallengeState>;
  /** (participation, challenge) pairs already solved: `solvedKey`. */
  solved: ReadonlySet<string>;
}

/** A `solves` row to insert. */
export interface Solve {
  participationId: number;
  challengeId: number;
  submissionId: number;
  solvedAt: number;
  type: BloodRank | 'Normal';
}

/** What the judgement writes and announces besides the verdict, in order. */
type JudgeEvent =
  | { kind: 'event'; type: 'FlagSubmit' | 'CheatDetected'; values: string[] }
  | { kind: 'notice'; type: BloodRank; values: string[] };

export interface Decision {
  verdict: AnswerResult;
  solve?: Solve;
  /** The team whose flag was submitted, for the `cheat_info` row. */
  cheatSource?: { participationId: number; teamName: string };
  events: JudgeEvent[];
  next: JudgeContext;
}

const BLOODS: readonly BloodRank[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood'];

/**
 * A `FlagSubmit` event's values (GZCTF's order: verdict, answer, challenge title, challenge id). The
 * intake's statement builds the same four in SQL for the wrong answers it judges (intake.repository.ts).
 */
export const flagSubmitValues = (
  verdict: AnswerResult,
  answer: string,
  challenge: { id: number; title: string },
): string[] => [verdict, answer, challenge.title, String(challenge.id)];

export const solvedKey = (participationId: number, challengeId: number) => `${participationId}\u0000${challengeId}`;

const isDynamic = (type: ChallengeType) => type === 'DynamicAttachment' || type === 'DynamicContainer';

/** Whether the answer is right: a dynamic challenge's is the team's own flag, a static one's any static flag. */
function isCorrect(submission: SubmissionFacts, flags: Pick<FlagFacts, 'static' | 'own'>): boolean {
  if (isDynamic(submission.challenge.type)) return flags.own !== null && flags.own === submission.answer;
  return flags.static.includes(submission.answer);
}

/** Whether a wrong answer could be cheating, so the caller knows whose foreign flags to look up. */
export function mayBeCheat(submission: SubmissionFacts, flags: Pick<FlagFacts, 'static' | 'own'>): boolean {
  return isDynamic(submission.challenge.type) && !isCorrect(submission, flags);
}

/**
 * Whether the submission can become a solve, whatever the context: the caller reads the solve state
 * of these submissions' challenges and teams only.
 */
export function maySolve(submission: SubmissionFacts, flags: Pick<FlagFacts, 'static' | 'own'>): boolean {
  return (
    submission.hasInstance &&
    submission.challenge.enabled &&
    submission.participation.accepted &&
    submission.submittedAt < submission.gameEndAt &&
    isCorrect(submission, flags)
  );
}

/**
 * Judges one submission against `context` and returns the context the next one is judged against.
 *
 * - No instance, or a disabled challenge: `NotFound`, nothing else (no event, not counted).
 * - Right: `Accepted`. It is the team's solve when submitted before the end by an accepted team that
 *   has not solved the challenge yet: the n-th counted solve (n < 3) of a challenge with blood bonus
 *   is that blood, announced by a notice while the game runs and its board is not frozen (the notice
 *   would name a team the frozen board hides); solve times strictly increase per challenge (at least
 *   the latest + 1 ms). Practice after the end is `Accepted` and no solve.
 * - Wrong and equal to another team's dynamic flag: `CheatDetected` with a `CheatDetected` event.
 * - Else `WrongAnswer`. Every verdict but `NotFound` has a `FlagSubmit` event.
 *
 * A wrong answer to a static challenge whose team has the instance usually never gets here: the
 * intake's statement reaches this same verdict and event itself (intake.repository.ts), since it
 * depends on nothing the judge locks.
 */
export function decide(submission: SubmissionFacts, flags: FlagFacts, context: JudgeContext): Decision {
  const { challenge, participation } = submission;
  if (!submission.hasInstance || !challenge.enabled) {
    return { verdict: 'NotFound', events: [], next: context };
  }
  const flagSubmit = (verdict: AnswerResult): JudgeEvent => ({
    kind: 'event',
    type: 'FlagSubmit',
    values: flagSubmitValues(verdict, submission.answer, challenge),
  });

  if (!isCorrect(submission, flags)) {
    const source = isDynamic(challenge.type)
      ? flags.others.find((other) => other.participationId !== participation.id && other.flag === submission.answer)
      : undefined;
    if (!source) return { verdict: 'WrongAnswer', events: [flagSubmit('WrongAnswer')], next: context };
    return {
      verdict: 'CheatDetected',
      cheatSource: { participationId: source.participationId, teamName: source.teamName },
      events: [
        flagSubmit('CheatDetected'),
        { kind: 'event', type: 'CheatDetected', values: [challenge.title, participation.teamName, source.teamName] },
      ],
      next: context,
    };
  }

  const key = solvedKey(participation.id, challenge.id);
  const state = context.challenges.get(challenge.id) ?? { accepted: 0, latest: Number.NEGATIVE_INFINITY };
  if (!maySolve(submission, flags) || context.solved.has(key))
    return { verdict: 'Accepted', events: [flagSubmit('Accepted')], next: context };

  const solvedAt = Math.max(submission.submittedAt, state.latest + 1);
  const rank = challenge.bloodBonus ? BLOODS[state.accepted] : undefined;
  const events: JudgeEvent[] = [flagSubmit('Accepted')];
  const frozen = submission.freezeAt !== null && context.now >= submission.freezeAt;
  if (rank && context.now < submission.gameEndAt && !frozen) {
    events.push({ kind: 'notice', type: rank, values: [participation.teamName, challenge.title] });
  }
  return {
    verdict: 'Accepted',
    solve: {
      participationId: participation.id,
      challengeId: challenge.id,
      submissionId: submission.id,
      solvedAt,
      type: rank ?? 'Normal',
    },
    events,
    next: {
      now: context.now,
      challenges: new Map(context.challenges).set(challenge.id, { accepted: state.accepted + 1, latest: solvedAt }),
      solved: new Set(context.solved).add(key),
    },
  };
}
