import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '../../../server/src/db/client';
import { challenges, solves, submissions } from '../../../server/src/db/schema';
import { addJudgedCounts, lockChallengeCounts, updateAcceptedCounts } from '../../../server/src/modules/challenges';
import { createChallenge, createGame } from '../db/fixtures';
import { engines, lockWaiters } from '../helpers/database';
import { eventually } from '../instances/support';
import { joinTeam } from './support';

// The recount against a judgement in flight needs two connections: PostgreSQL only (PGlite has one,
// so nothing runs alongside a transaction there).
const postgres = engines().find((engine) => engine.name === 'postgres');

if (postgres) {
  describe('the accepted-count recount beside the judge (postgres)', () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await postgres.open();
    });
    after(async () => database.close());

    const waitingOnLocks = async () => (await lockWaiters(database.db)) > 0;

    const acceptedTeam = (gameId: number) => joinTeam(database.db, gameId, 'Accepted');

    /** A solve as the judge writes it: submission, solve and the counter, in the judge's transaction. */
    const judgeSolve = async (tx: Db, team: Awaited<ReturnType<typeof acceptedTeam>>, gameId: number, id: number) => {
      const at = new Date();
      const [submission] = await tx
        .insert(submissions)
        .values({
          answer: 'flag',
          status: 'Accepted',
          teamId: team.team.id,
          participationId: team.participation.id,
          gameId,
          challengeId: id,
          submittedAt: at,
        })
        .returning();
      await tx.insert(solves).values({
        participationId: team.participation.id,
        challengeId: id,
        submissionId: submission!.id,
        solvedAt: at,
      });
      await tx.execute(addJudgedCounts(sql`${JSON.stringify([{ id, solved: 1 }])}`));
    };

    const countOf = async (id: number) =>
      (await database.db.select().from(challenges).where(eq(challenges.id, id)))[0]!.acceptedCount;

    test('a recount that waited for a judgement counts its solve', async () => {
      const game = await createGame(database.db);
      const challenge = await createChallenge(database.db, game.id, { isEnabled: true });
      const first = await acceptedTeam(game.id);
      const second = await acceptedTeam(game.id);
      await database.db.transaction((tx) => judgeSolve(tx, first, game.id, challenge.id));
      assert.equal(await countOf(challenge.id), 1);

      let recount: Promise<void> | undefined;
      await database.db.transaction(async (tx) => {
        await lockChallengeCounts(tx, [challenge.id]);
        await judgeSolve(tx, second, game.id, challenge.id);
        recount = updateAcceptedCounts(database.db, game.id);
        await eventually(waitingOnLocks);
      });
      await recount;
      assert.equal(await countOf(challenge.id), 2, 'the second solve is counted, so the next one is no blood');
    });

    test('a recount and a judgement locking the same challenges both finish', async () => {
      const game = await createGame(database.db);
      const low = await createChallenge(database.db, game.id, { isEnabled: true });
      const high = await createChallenge(database.db, game.id, { isEnabled: true });
      // A new row version of the lower id goes after the higher one: a scan meets `high` first.
      await database.db.update(challenges).set({ acceptedCount: 0 }).where(eq(challenges.id, low.id));
      const order = await database.db.execute<{ id: number }>(
        sql`select id from challenges where game_id = ${game.id} order by ctid`,
      );
      assert.deepEqual(
        order.rows.map((row) => row.id),
        [high.id, low.id],
      );
      const team = await acceptedTeam(game.id);

      // The judge's batch locks `low`, then `high` (id order); the recount starts in between.
      let recount: Promise<unknown> | undefined;
      await database.db.transaction(async (tx) => {
        await lockChallengeCounts(tx, [low.id]);
        recount = updateAcceptedCounts(database.db, game.id).then(
          () => 'done',
          (error: unknown) => error,
        );
        await eventually(waitingOnLocks);
        await lockChallengeCounts(tx, [high.id]);
        await judgeSolve(tx, team, game.id, low.id);
        await judgeSolve(tx, team, game.id, high.id);
      });
      assert.equal(await recount, 'done');
      assert.deepEqual([await countOf(low.id), await countOf(high.id)], [1, 1]);
    });
  });
}
