import { and, eq, sql } from 'drizzle-orm';
import { preparedQuery, type Db } from '../../db/client';
import type { AnswerResult } from '../../db/schema/enums';
import { submissions } from '../../db/schema/submissions';

const ownSubmissionStatus = preparedQuery((db) =>
  db
    .select({ status: submissions.status })
    .from(submissions)
    .where(
      and(
        eq(submissions.id, sql.placeholder('id')),
        eq(submissions.userId, sql.placeholder('userId')),
        eq(submissions.gameId, sql.placeholder('gameId')),
        eq(submissions.challengeId, sql.placeholder('challengeId')),
      ),
    )
    .prepare('find_own_submission_status'),
);

/** The status of one of the user's own submissions, only when it is the game's and the challenge's (polled after each submission). */
export async function findOwnSubmissionStatus(
  db: Db,
  id: number,
  userId: string,
  gameId: number,
  challengeId: number,
): Promise<AnswerResult | undefined> {
  const [row] = await ownSubmissionStatus(db).execute({ id, userId, gameId, challengeId });
  return row?.status;
}
