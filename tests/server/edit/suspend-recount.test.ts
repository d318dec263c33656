import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '../../../server/src/db/client';
import { challenges, cheatInfo, participations, solves, submissions } from '../../../server/src/db/schema';
import { addJudgedCounts, lockChallengeCounts } from '../../../server/src/modules/challenges';
import { reviewParticipation } from '../../../server/src/modules/participations';
import type { ScoreboardModel } from '../../../server/src/modules/scoreboard/scoreboard';
import { adminDeleteTeam } from '../../../server/src/modules/teams';
import { createChallenge as insertChallenge, createGame as insertGame } from '../db/fixtures';
import { engines, lockWaiters } from '../helpers/database';
import { eventually } from '../instances/support';
import {
  acceptedPlayer,
  join,
  newChallenge,
  newGame,
  newPlayer,
  settle,
  submit,
  suiteWithAdmin,
  type Player,
} from '../game/support';
import { joinTeam } from './support';

// The board counts the solves of Accepted teams; the challenge dialog's score and the judge's next
// blood read the stored `accepted_count`. Suspending a team, taking it back and deleting a team
// recount the challenges it solved in the same transaction, so the two agree again.

for (const engine of engines()) {
  describe(`accepted counts after a review or a team deletion (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    const participationOf = async (gameId: number, teamId: number) =>
      (
        await ctx.app.db
          .select()
          .from(participations)
          .where(and(eq(participations.gameId, gameId), eq(participations.teamId, teamId)))
      )[0]!;
    const review = async (participationId: number, status: string) => {
      const response = await admin('PUT', `/api/admin/participation/${participationId}`, { status });
      assert.equal(response.statusCode, 200, response.body);
      await settle(ctx.app);
    };

    const playerIn = async (gameId: number, division: string) => {
      const player = await newPlayer(ctx.app);
      const response = await join(player, gameId, { division });
      assert.equal(response.statusCode, 200, response.body);
      return player;
    };

    /** The challenge's score as the dialog shows it to `viewer`, and as the board's ChallengeInfo. */
    async function scores(viewer: Player, gameId: number, challengeId: number) {
      const dialog = await viewer.api('GET', `/api/game/${gameId}/challenges/${challengeId}`);
      assert.equal(dialog.statusCode, 200, dialog.body);
      const board = await admin('GET', `/api/game/${gameId}/scoreboard`);
      assert.equal(board.statusCode, 200, board.body);
      const info = Object.values(board.json<ScoreboardModel>().challenges)
        .flat()
        .find((challenge) => challenge.id === challengeId)!;
      const [row] = await ctx.app.db.select().from(challenges).where(eq(challenges.id, challengeId));
      return { dialog: dialog.json<{ score: number }>().score, board: info.score, stored: row!.acceptedCount };
    }

    test('suspending the first solver, taking it back and deleting a solving team keep the dialog and the board agreed', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{count}'] });
      const solvers: Player[] = [];
      for (let n = 0; n < 3; n += 1) solvers.push(await acceptedPlayer(ctx.app, game.id));
      const viewer = await acceptedPlayer(ctx.app, game.id);
      for (const solver of solvers) {
        await submit(solver, game.id, challenge.id, 'flag{count}');
        await settle(ctx.app);
      }
      const three = await scores(viewer, game.id, challenge.id);
      assert.equal(three.stored, 3);
      assert.equal(three.dialog, three.board);

      const first = await participationOf(game.id, solvers[0]!.team.id);
      await review(first.id, 'Suspended');
      const suspended = await scores(viewer, game.id, challenge.id);
      assert.deepEqual(suspended, { dialog: suspended.board, board: suspended.board, stored: 2 });
      assert.ok(suspended.board > three.board, 'two solves score more than three');

      await review(first.id, 'Accepted');
      assert.deepEqual(await scores(viewer, game.id, challenge.id), three);

      const deleted = await admin('DELETE', `/api/admin/teams/${solvers[1]!.team.id}`);
      assert.equal(deleted.statusCode, 200, deleted.body);
      await settle(ctx.app);
      assert.deepEqual(await scores(viewer, game.id, challenge.id), suspended);
    });

    test('a change of division only, or a review of a team without solves, leaves the counts alone', async () => {
      const game = await newGame(admin, { divisions: ['A', 'B'] });
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{alone}'] });
      const solver = await playerIn(game.id, 'A');
      const idle = await playerIn(game.id, 'A');
      await submit(solver, game.id, challenge.id, 'flag{alone}');
      await settle(ctx.app);
      const response = await admin(
        'PUT',
        `/api/admin/participation/${(await participationOf(game.id, solver.team.id)).id}`,
        {
          division: 'B',
        },
      );
      assert.equal(response.statusCode, 200, response.body);
      await review((await participationOf(game.id, idle.team.id)).id, 'Suspended');
      const now = await scores(solver, game.id, challenge.id);
      assert.deepEqual(now, { dialog: now.board, board: now.board, stored: 1 });
    });
  });
}

// Beside the judge: two connections, so PostgreSQL only (PGlite runs one transaction at a time).
const postgres = engines().find((engine) => engine.name === 'postgres');

if (postgres) {
  describe('the recount of a review or a team deletion beside the judge (postgres)', () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await postgres.open();
    });
    after(async () => database.close());

    const waitingOnLocks = async () => (await lockWaiters(database.db)) > 0;
    const countOf = async (id: number) =>
      (await database.db.select().from(challenges).where(eq(challenges.id, id)))[0]!.acceptedCount;
    type Team = Awaited<ReturnType<typeof joinTeam>>;

    const submission = async (
      tx: Db,
      team: Team,
      gameId: number,
      challengeId: number,
      status: 'Accepted' | 'WrongAnswer',
    ) => {
      const [row] = await tx
        .insert(submissions)
        .values({
          answer: 'flag',
          status,
          teamId: team.team.id,
          participationId: team.participation.id,
          gameId,
          challengeId,
        })
        .returning();
      return row!;
    };

    /** `team` solved the challenge, as the judge writes it. */
    const solve = async (team: Team, gameId: number, challengeId: number) =>
      database.db.transaction(async (tx) => {
        const row = await submission(tx, team, gameId, challengeId, 'Accepted');
        await tx
          .insert(solves)
          .values({ participationId: team.participation.id, challengeId, submissionId: row.id, solvedAt: new Date() });
        await tx.execute(addJudgedCounts(sql`${JSON.stringify([{ id: challengeId, solved: 1 }])}`));
      });

    /**
     * A judgement holding the challenge's lock while `operation` starts and waits for it; the judge
     * then records that `cheater` sent `leaker`'s flag, which takes a key-share lock on the
     * leaker's participation (the cheat record's foreign key). Returns how the operation ended.
     */
    async function besideCheatJudgement(
      gameId: number,
      challengeId: number,
      cheater: Team,
      leaker: Team,
      operation: () => Promise<unknown>,
    ) {
      let running: Promise<unknown> | undefined;
      await database.db.transaction(async (tx) => {
        await lockChallengeCounts(tx, [challengeId]);
        running = operation().then(
          () => 'done',
          (error: unknown) => error,
        );
        await eventually(waitingOnLocks);
        const row = await submission(tx, cheater, gameId, challengeId, 'WrongAnswer');
        await tx.insert(cheatInfo).values({
          submissionId: row.id,
          gameId,
          submitParticipationId: cheater.participation.id,
          sourceParticipationId: leaker.participation.id,
        });
      });
      return running;
    }

    test('suspending a team while the judge records its leaked flag: both finish, and the count follows', async () => {
      const game = await insertGame(database.db);
      const challenge = await insertChallenge(database.db, game.id, { isEnabled: true });
      const leaker = await joinTeam(database.db, game.id, 'Accepted');
      const cheater = await joinTeam(database.db, game.id, 'Accepted');
      await solve(leaker, game.id, challenge.id);
      assert.equal(await countOf(challenge.id), 1);

      const outcome = await besideCheatJudgement(game.id, challenge.id, cheater, leaker, () =>
        reviewParticipation(database.db, leaker.participation.id, { status: 'Suspended' }),
      );
      assert.equal(outcome, 'done');
      assert.equal(await countOf(challenge.id), 0);
    });

    test('an admin deleting a team while the judge records its leaked flag: both finish, and the count follows', async () => {
      const game = await insertGame(database.db);
      const challenge = await insertChallenge(database.db, game.id, { isEnabled: true });
      const leaker = await joinTeam(database.db, game.id, 'Accepted');
      const cheater = await joinTeam(database.db, game.id, 'Accepted');
      const other = await joinTeam(database.db, game.id, 'Accepted');
      await solve(leaker, game.id, challenge.id);
      await solve(other, game.id, challenge.id);
      assert.equal(await countOf(challenge.id), 2);

      const outcome = await besideCheatJudgement(game.id, challenge.id, cheater, leaker, () =>
        adminDeleteTeam(database.db, tmpdir(), leaker.team.id),
      );
      assert.equal(outcome, 'done');
      assert.equal(await countOf(challenge.id), 1);
    });
  });
}
