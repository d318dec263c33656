import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { challenges, flags, participations, solves, submissions } from '../../../server/src/db/schema';
import { recountAcceptedCounts } from '../../../server/src/modules/challenges';
import { judgeSubmissions } from '../../../server/src/modules/submissions/judge/judge';
import { createChallenge, createGame, createInstance } from '../db/fixtures';
import { joinTeam } from '../edit/support';
import { engines, lockWaiters } from '../helpers/database';
import { eventually } from '../instances/support';

// A review suspending a team recounts the accepted counts of what the team solved; a judgement of
// its right answer in flight must either be seen by that recount or see the suspension. Two
// connections at once: PostgreSQL only.
const postgres = engines().find((engine) => engine.name === 'postgres');

if (postgres) {
  describe('the judge beside a suspension (postgres)', () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await postgres.open();
    });
    after(async () => database.close());

    test('a right answer judged while its team is being suspended is not counted', async () => {
      const { db } = database;
      const game = await createGame(db);
      const challenge = await createChallenge(db, game.id, { isEnabled: true });
      await db.insert(flags).values({ challengeId: challenge.id, flag: 'flag{race}' });
      const team = await joinTeam(db, game.id, 'Accepted');
      await createInstance(db, team.participation.id, challenge.id);
      // Acknowledged while the team was accepted, as the intake stores it.
      const [submission] = await db
        .insert(submissions)
        .values({
          answer: 'flag{race}',
          status: 'FlagSubmitted',
          teamId: team.team.id,
          participationId: team.participation.id,
          gameId: game.id,
          challengeId: challenge.id,
        })
        .returning();

      // The review, as it runs: the team suspended, then the accepted counts of what it solved recounted.
      let judged: ReturnType<typeof judgeSubmissions> | undefined;
      await db.transaction(async (tx) => {
        await tx
          .update(participations)
          .set({ status: 'Suspended' })
          .where(eq(participations.id, team.participation.id));
        judged = judgeSubmissions(db, [submission!.id]);
        // The judge waits for the review (unlocked, it judged the team as still accepted at once).
        await Promise.race([judged, eventually(async () => (await lockWaiters(db)) > 0)]);
        await recountAcceptedCounts(tx, [challenge.id]);
      });
      const verdicts = await judged!;

      assert.equal(verdicts.get(submission!.id)?.status, 'Accepted', 'the answer was right');
      assert.equal(verdicts.get(submission!.id)?.solved, false, 'but it is no solve');
      assert.deepEqual(await db.select().from(solves).where(eq(solves.challengeId, challenge.id)), []);
      const [row] = await db.select().from(challenges).where(eq(challenges.id, challenge.id));
      assert.equal(row!.acceptedCount, 0, 'so the next accepted team still takes the first blood');
    });
  });
}
