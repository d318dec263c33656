import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AnswerResult } from '../../db/schema/enums';
import { submissions } from '../../db/schema/submissions';

/** The status of one of the user's submissions, only when it is the team's and the challenge's. */
export async function findOwnSubmissionStatus(
  db: Db,
  id: number,
  userId: string,
  participationId: number,
  challengeId: number,
): Promise<AnswerResult | undefined> {
  const [row] = await db
    .select({ status: submissions.status })
    .from(submissions)
    .where(
      and(
        eq(submissions.id, id),
        eq(submissions.userId, userId),
        eq(submissions.participationId, participationId),
        eq(submissions.challengeId, challengeId),
      ),
    );
  return row?.status;
}
