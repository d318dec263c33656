import type { DatabaseHandle, Db } from '../../db/client';
import type { AnswerResult } from '../../db/schema/enums';
import { MAX_FLAG_LENGTH } from '../../lib/flag-template';
import { badRequest, notFound } from '../../lib/http-error';
import type { PlatformMetrics } from '../../lib/metrics';
import type { SessionUser } from '../../plugins/app/auth';
import { ended, notStarted } from '../games';
import type { FlagChecker } from './checker';
import { submissionIntake } from './intake.repository';
import { announceWrongAnswer } from './judge/judge';
import { findOwnSubmissionStatus } from './submit.repository';

/** A player's flag: submitted (acknowledged, then judged in the background) and its status read back. */

/**
 * Commits the submission as FlagSubmitted, then queues it; the id is the acknowledgement. The
 * context checks and the insert are one statement shared by concurrent submissions (`intake.ts`);
 * the answers below follow `playContext`'s order, then the challenge, then the answer itself.
 */
/** What submitting uses of the app. */
export interface SubmitDeps {
  db: Db;
  database: Pick<DatabaseHandle, 'kind'>;
  flagChecker: Pick<FlagChecker, 'enqueue' | 'judgedElsewhere'>;
  metrics: Pick<PlatformMetrics, 'submissionsAcknowledged'>;
}

export async function submitFlag(
  deps: SubmitDeps,
  gameId: number,
  challengeId: number,
  user: SessionUser,
  flag: string,
): Promise<number> {
  const answer = flag.trim();
  // A lone surrogate (\p{Cs} in a `u` regex matches only unpaired halves) cannot travel through the
  // batch's JSON into PostgreSQL: it would fail the whole statement, and everyone's flags in it.
  const valid =
    answer.length > 0 && answer.length <= MAX_FLAG_LENGTH && !answer.includes('\0') && !/\p{Cs}/u.test(answer);
  const context = await submissionIntake(deps.db, deps.database.kind).run({
    gameId,
    challengeId,
    userId: user.id,
    answer: valid ? answer : '',
    valid,
  });
  if (!context.gameFound) throw notFound('game.notFound');
  if (context.participationStatus === null) throw badRequest('game.notParticipated');
  if (context.participationStatus !== 'Accepted') throw badRequest('game.notAccepted');
  if (!context.started) throw notStarted();
  if (!context.open) throw ended();
  if (!context.challengeFound) throw notFound('game.challengeNotFound');
  if (!valid || context.submissionId === null) throw badRequest('game.invalidFlag');
  deps.metrics.submissionsAcknowledged.inc();
  if (!context.judged) {
    deps.flagChecker.enqueue(context.submissionId);
    return context.submissionId;
  }
  const { at, userName, teamName, challengeTitle } = context.judged;
  announceWrongAnswer({ gameId, challengeId, challengeTitle, answer, at, userName, teamName });
  deps.flagChecker.judgedElsewhere(
    new Map([[context.submissionId, { status: 'WrongAnswer', gameId, solved: false, submittedAt: at }]]),
  );
  return context.submissionId;
}

export async function submissionStatus(
  db: Db,
  gameId: number,
  challengeId: number,
  submissionId: number,
  user: SessionUser,
): Promise<AnswerResult> {
  // No context checks, as in GZCTF: a flag sent in the game's last seconds is judged after the end,
  // and a team suspended since must still read the verdict of what it sent. That the submission is
  // the user's own, in this game and challenge, is the whole check.
  const status = await findOwnSubmissionStatus(db, submissionId, user.id, gameId, challengeId);
  if (!status) throw notFound('game.submissionNotFound');
  return status === 'CheatDetected' ? 'WrongAnswer' : status;
}
