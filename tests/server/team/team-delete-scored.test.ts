import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { challenges, cheatInfo, gameInstances, participations } from '../../../server/src/db/schema';
import type { ScoreboardModel } from '../../../server/src/modules/scoreboard/scoreboard';
import { engines } from '../helpers/database';
import {
  acceptedPlayer,
  newChallenge,
  newGame,
  settle,
  setTimes,
  submit,
  suiteWithAdmin,
  times,
  type Player,
} from '../game/support';
import { assertError, teamRow } from './support';

// A player's team deletion cascades its participations and solves: once a game is over (the team
// lock no longer refuses), a captain could rewrite the final board by deleting a team that played
// (bloods moving to others, dynamic scores rising) and erase its cheat records. A team that has
// submitted a flag in a game it was accepted to, or whose flag another team submitted there, is
// therefore deleted by an admin only.

const PLAYED = 'The team has flags on record in a game; only an admin can delete it';

for (const engine of engines()) {
  describe(`deleting a team that played (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    const board = async (gameId: number) => {
      const response = await admin('GET', `/api/game/${gameId}/scoreboard`);
      assert.equal(response.statusCode, 200, response.body);
      return response.json<ScoreboardModel>();
    };
    /** The board without its generation time, which a rebuild renews whatever it finds. */
    const content = ({ updateTimeUtc: _, ...rest }: ScoreboardModel) => rest;
    const deleteAs = (player: Player, accept = 'en-US') =>
      ctx.app.inject({
        method: 'DELETE',
        url: `/api/team/${player.team.id}`,
        headers: { cookie: player.cookie, 'accept-language': accept },
      });
    const acceptedCount = async (id: number) =>
      (await ctx.app.db.select().from(challenges).where(eq(challenges.id, id)))[0]!.acceptedCount;

    /** Ends the game just now, after every solve so far: they all stay on its final board. */
    const endNow = async (gameId: number) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await setTimes(ctx.app, gameId, -2 * times.HOUR, -5);
    };

    /** A game with one challenge that `solvers` solve in order and `others` only join; then it ends. */
    async function endedGame(solvers: number, others: number) {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{final}'] });
      const players: Player[] = [];
      for (let n = 0; n < solvers + others; n += 1) players.push(await acceptedPlayer(ctx.app, game.id));
      for (const player of players.slice(0, solvers)) {
        await submit(player, game.id, challenge.id, 'flag{final}');
        await settle(ctx.app);
      }
      await endNow(game.id);
      return { game, challenge, solvers: players.slice(0, solvers), others: players.slice(solvers) };
    }

    test('after the end, a captain cannot delete a team with a solve: 400, and the board stays as it was', async () => {
      const { game, challenge, solvers } = await endedGame(3, 0);
      const [first] = solvers;
      const before = await board(game.id);
      assert.equal(before.items[0]!.id, first!.team.id);
      assert.equal(before.items[0]!.solvedChallenges[0]!.type, 'FirstBlood');

      assertError('teamDeleteTeam', await deleteAs(first!), 400, PLAYED);
      assertError(
        'teamDeleteTeam',
        await deleteAs(first!, 'fr-FR'),
        400,
        "L'équipe a des flags enregistrés dans un jeu ; seul un administrateur peut la supprimer",
      );
      await settle(ctx.app);
      assert.ok(await teamRow(ctx.app, first!.team.id), 'the team is still there');
      assert.deepEqual(content(await board(game.id)), content(before));
      assert.equal(await acceptedCount(challenge.id), 3);
    });

    test('a suspended team with a solve, or a team with only a wrong answer, is refused too', async () => {
      const { game, challenge, solvers, others } = await endedGame(1, 1);
      const [suspended] = solvers;
      const [wrong] = others;
      const [row] = await ctx.app.db
        .select()
        .from(participations)
        .where(and(eq(participations.gameId, game.id), eq(participations.teamId, suspended!.team.id)));
      const review = await admin('PUT', `/api/admin/participation/${row!.id}`, { status: 'Suspended' });
      assert.equal(review.statusCode, 200, review.body);
      assertError('teamDeleteTeam', await deleteAs(suspended!), 400, PLAYED);

      // A wrong answer scores nothing, but it is the team's history in the game (and, for another
      // team's flag, its cheat record): the deletion is the admin's call as well.
      await setTimes(ctx.app, game.id, -2 * times.HOUR, times.HOUR);
      await submit(wrong!, game.id, challenge.id, 'flag{wrong}');
      await settle(ctx.app);
      await endNow(game.id);
      assertError('teamDeleteTeam', await deleteAs(wrong!), 400, PLAYED);
      assert.ok(await teamRow(ctx.app, wrong!.team.id));
    });

    test('a team that never submitted but whose flag another team sent is refused: the cheat record stays', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, {
        type: 'DynamicContainer',
        flagTemplate: 'flag{[TEAM_HASH]}',
      });
      const cheater = await acceptedPlayer(ctx.app, game.id);
      const source = await acceptedPlayer(ctx.app, game.id);
      // Opening the challenge gives the team its instance and so its own flag.
      assert.equal((await source.api('GET', `/api/game/${game.id}/challenges/${challenge.id}`)).statusCode, 200);
      assert.equal((await cheater.api('GET', `/api/game/${game.id}/challenges/${challenge.id}`)).statusCode, 200);
      const [instance] = await ctx.app.db
        .select({ flag: gameInstances.flag })
        .from(gameInstances)
        .innerJoin(participations, eq(participations.id, gameInstances.participationId))
        .where(and(eq(gameInstances.challengeId, challenge.id), eq(participations.teamId, source.team.id)));
      await submit(cheater, game.id, challenge.id, instance!.flag!);
      await settle(ctx.app);
      await endNow(game.id);
      const records = async () =>
        (await ctx.app.db.select().from(cheatInfo).where(eq(cheatInfo.gameId, game.id))).length;
      assert.equal(await records(), 1);

      assertError('teamDeleteTeam', await deleteAs(source), 400, PLAYED);
      assert.ok(await teamRow(ctx.app, source.team.id), 'the team is still there');
      assert.equal(await records(), 1, 'and so is the cheat record naming it');
    });

    test('a team that took part without submitting can still be deleted by its captain after the end', async () => {
      const { game, challenge, solvers, others } = await endedGame(1, 1);
      const [solver] = solvers;
      const [idle] = others;
      const before = await board(game.id);
      const response = await deleteAs(idle!);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(await teamRow(ctx.app, idle!.team.id), undefined);
      await settle(ctx.app);
      const after = await board(game.id);
      assert.deepEqual(
        after.items.map((item) => item.id),
        [solver!.team.id],
      );
      assert.deepEqual(after.challenges, before.challenges, 'no score moved');
      assert.equal(await acceptedCount(challenge.id), 1);
    });

    test('an admin can delete the scored team; the board and the accepted count follow', async () => {
      const { game, challenge, solvers } = await endedGame(2, 0);
      const [first, second] = solvers;
      const response = await admin('DELETE', `/api/admin/teams/${first!.team.id}`);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(await teamRow(ctx.app, first!.team.id), undefined);
      await settle(ctx.app);
      const after = await board(game.id);
      assert.deepEqual(
        after.items.map((item) => item.id),
        [second!.team.id],
      );
      assert.equal(after.items[0]!.solvedChallenges[0]!.type, 'FirstBlood');
      assert.equal(await acceptedCount(challenge.id), 1);
    });
  });
}
