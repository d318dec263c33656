import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { games } from '../../../server/src/db/schema';
import { submissions } from '../../../server/src/db/schema/submissions';
import {
  computeScoreboard,
  loadScoreboardRows,
  type ScoreboardModel,
  type SolveInput,
  type SolveSnapshot,
} from '../../../server/src/modules/scoreboard/scoreboard';
import { ScoreboardCache } from '../../../server/src/modules/scoreboard/scoreboard-cache';
import { createMemoryCache } from '../../../server/src/plugins/app/cache';
import { engines } from '../helpers/database';
import { acceptedPlayer, newChallenge, newGame, settle, submit, suiteWithAdmin } from './support';

const bySubmission = (solves: SolveInput[]) => [...solves].sort((a, b) => a.submissionId - b.submissionId);

for (const engine of engines()) {
  describe(`the board's solves read since the last build (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    /** Reads the rows after `previous` and checks the solves against a read of them all. */
    async function readAfter(gameId: number, previous: SolveSnapshot) {
      const rows = await loadScoreboardRows(ctx.app.db, gameId, previous);
      const all = await loadScoreboardRows(ctx.app.db, gameId);
      assert.deepEqual(bySubmission(rows.solves), bySubmission(all.solves));
      assert.equal(rows.snapshot.count, all.snapshot.count);
      assert.equal(rows.snapshot.fingerprint, all.snapshot.fingerprint);
      return { snapshot: rows.snapshot, reused: rows.snapshot.fullReadAt === previous.fullReadAt };
    }

    /** Judges a wrong answer as a solve behind the judge's back, as another instance would have. */
    async function solveLate(id: number) {
      const [row] = await ctx.app.db.select().from(submissions).where(eq(submissions.id, id));
      await ctx.app.db.execute(sql`update submissions set status = 'Accepted' where id = ${id}`);
      await ctx.app.db.execute(sql`insert into solves (participation_id, challenge_id, submission_id, solved_at)
        values (${row!.participationId}, ${row!.challengeId}, ${id}, now())`);
    }

    test('newer solves are added to the last read; one committed out of order, or one removed, makes a full read', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{rows}'] });
      const players = [];
      for (let n = 0; n < 4; n += 1) players.push(await acceptedPlayer(ctx.app, game.id));
      const early = await submit(players[0]!, game.id, challenge.id, 'flag{rows}');
      // Wrong answers now, turned into solves below: solves with lower ids than the last one read.
      const late = [
        await submit(players[2]!, game.id, challenge.id, 'flag{not-yet}'),
        await submit(players[3]!, game.id, challenge.id, 'flag{not-yet}'),
      ];
      await settle(ctx.app);
      const first = await loadScoreboardRows(ctx.app.db, game.id);
      assert.equal(first.snapshot.count, 1);

      // Nothing new: the same solves, without reading them again.
      const same = await readAfter(game.id, first.snapshot);
      assert.equal(same.reused, true);
      assert.equal(same.snapshot.solves.length, 1);

      await submit(players[1]!, game.id, challenge.id, 'flag{rows}');
      await settle(ctx.app);
      const added = await readAfter(game.id, same.snapshot);
      assert.equal(added.reused, true);
      assert.equal(added.snapshot.count, 2);

      await solveLate(late[0]!);
      const outOfOrder = await readAfter(game.id, added.snapshot);
      assert.equal(outOfOrder.reused, false);
      assert.equal(outOfOrder.snapshot.count, 3);
      assert.ok(outOfOrder.snapshot.solves.some((solve) => solve.submissionId === late[0]));

      // One solve gone (its submission deleted) and one committed out of order: as many solves as
      // before, nothing newer, so only the fingerprint tells.
      await ctx.app.db.delete(submissions).where(eq(submissions.id, early));
      await solveLate(late[1]!);
      const replaced = await readAfter(game.id, outOfOrder.snapshot);
      assert.equal(replaced.reused, false);
      assert.equal(replaced.snapshot.count, 3);
      const ids = replaced.snapshot.solves.map((solve) => solve.submissionId);
      assert.ok(ids.includes(late[1]!) && !ids.includes(early));
    });

    test("a solve's user name is read with the solve; after an admin's change every solve is read again", async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{names}'] });
      const [first, second] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      // A board cache of its own, without pauses.
      const boards = new ScoreboardCache(ctx.app.db, createMemoryCache(), assert.ifError, () => 0);
      const solverOf = async (teamId: number) => {
        await boards.idle();
        const board = JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel;
        return board.items.find((item) => item.id === teamId)?.solvedChallenges[0]?.userName;
      };
      await submit(first, game.id, challenge.id, 'flag{names}');
      await settle(ctx.app);
      assert.equal(await solverOf(first.team.id), first.user.userName);

      // User names are at most 15 characters; the test's are 11.
      const renamed = `${first.user.userName.slice(0, 11)}new`;
      await ctx.app.db.execute(sql`update users set user_name = ${renamed} where id = ${first.user.id}`);
      await submit(second, game.id, challenge.id, 'flag{names}');
      await settle(ctx.app);
      boards.refresh(game.id);
      // Only the new solve was read: the earlier one keeps the name it was read with.
      assert.equal(await solverOf(second.team.id), second.user.userName);
      assert.equal(await solverOf(first.team.id), first.user.userName);

      boards.refresh(game.id, true);
      assert.equal(await solverOf(first.team.id), renamed);
    });

    test('the cached board after solves between its builds equals a board computed from scratch', async () => {
      const game = await newGame(admin);
      const flags = ['flag{a}', 'flag{b}'];
      const challenges = [];
      for (const flag of flags) challenges.push(await newChallenge(admin, game.id, { flags: [flag] }));
      const players = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      const [row] = await ctx.app.db.select().from(games).where(eq(games.id, game.id));
      const withoutTime = (board: ScoreboardModel) => ({ ...board, updateTimeUtc: 0 });
      for (const [who, player] of players.entries()) {
        for (const [which, challenge] of challenges.entries()) {
          await submit(player, game.id, challenge.id, flags[which]!);
          await settle(ctx.app);
          const cached = JSON.parse((await ctx.app.scoreboards.get(game.id, 'live'))!) as ScoreboardModel;
          const fresh = await computeScoreboard(ctx.app.db, row!);
          assert.deepEqual(withoutTime(cached), withoutTime(fresh), `after player ${who}'s solve of ${flags[which]}`);
        }
      }
    });
  });
}
