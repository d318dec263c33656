import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { games } from '../../../server/src/db/schema';
import { engines } from '../helpers/database';
import { acceptedPlayer, newChallenge, newGame, settle, submit, suiteWithAdmin } from './support';

for (const engine of engines()) {
  describe(`a frozen board tells nothing of the solves it hides (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);
    const board = (gameId: number, etag?: string) =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/game/${gameId}/scoreboard`,
        headers: etag ? { 'if-none-match': etag } : {},
      });

    test('after the freeze a solve leaves the served board, its time and its ETag as they were', async () => {
      const game = await newGame(admin);
      const [first, second] = [
        await newChallenge(admin, game.id, { flags: ['flag{a}'] }),
        await newChallenge(admin, game.id, { flags: ['flag{b}'] }),
      ];
      // Two of one title: their order must not change from one build to the next either.
      for (const challenge of [first, second]) {
        const renamed = await admin('PUT', `/api/edit/games/${game.id}/challenges/${challenge.id}`, { title: 'Twin' });
        assert.equal(renamed.statusCode, 200, renamed.body);
      }
      const early = await acceptedPlayer(ctx.app, game.id);
      const late = await acceptedPlayer(ctx.app, game.id);
      await submit(early, game.id, first.id, 'flag{a}');
      await settle(ctx.app);
      const freezeAt = Date.now() - 1000;
      assert.equal((await admin('PUT', `/api/game/${game.id}/freeze`, { freezeAt })).statusCode, 200);
      await settle(ctx.app);
      const before = await board(game.id);
      assert.equal(before.statusCode, 200);
      const etag = String(before.headers.etag);
      assert.equal(before.json<{ updateTimeUtc: number }>().updateTimeUtc, freezeAt);

      await submit(late, game.id, second.id, 'flag{b}');
      await settle(ctx.app);
      const after = await board(game.id, etag);
      assert.equal(after.statusCode, 304, 'the same board: nothing says a solve came in');
      // The live board (an admin's) does show it.
      const live = (await admin('GET', `/api/game/${game.id}/scoreboard`)).json<{ items: unknown[] }>();
      assert.equal(live.items.length, 2);
    });

    test('a blood notice from after the freeze (set later, for an earlier time) is not listed for players', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{blood}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      const beforeSolve = Date.now() - 1;
      await submit(player, game.id, challenge.id, 'flag{blood}');
      await settle(ctx.app);
      // A page other than the default one is read afresh (the default one is kept for a second).
      const bloods = async () =>
        (await player.api('GET', `/api/game/${game.id}/notices?count=50`))
          .json<Array<{ type: string }>>()
          .filter((notice) => notice.type === 'FirstBlood').length;
      assert.equal(await bloods(), 1);
      assert.equal((await admin('PUT', `/api/game/${game.id}/freeze`, { freezeAt: beforeSolve })).statusCode, 200);
      assert.equal(await bloods(), 0);
      assert.equal((await admin('PUT', `/api/game/${game.id}/freeze`, { freezeAt: null })).statusCode, 200);
      assert.equal(await bloods(), 1);
    });

    test("another instance's build makes this one read the game's start again", async () => {
      const game = await newGame(admin);
      await settle(ctx.app);
      assert.equal((await board(game.id)).statusCode, 200);
      const later = new Date(Date.now() + 3_600_000);
      await ctx.app.db.update(games).set({ startAt: later }).where(eq(games.id, game.id));
      // What the build lock does when another instance has built the board.
      ctx.app.scoreboards.forget(game.id);
      const deadline = Date.now() + 5000;
      while (ctx.app.scoreboards.startOf(game.id) !== later.getTime() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(ctx.app.scoreboards.startOf(game.id), later.getTime());
      const refused = await board(game.id);
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json<{ status: number }>().status, 10001);
    });
  });
}
