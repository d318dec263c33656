import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryCache } from '../../../server/src/plugins/app/cache';
import { ScoreboardCache } from '../../../server/src/modules/scoreboard/scoreboard-cache';
import type { ScoreboardModel } from '../../../server/src/modules/scoreboard/scoreboard';
import type { BuildLock } from '../../../server/src/plugins/app/build-lock';
import { engines } from '../helpers/database';
import { acceptedPlayer, newChallenge, newGame, submit, suiteWithAdmin } from './support';

/** Reads the board until `done` holds (the regeneration runs in the background), for at most `ms`. */
async function boardWhen(
  boards: ScoreboardCache,
  gameId: number,
  done: (board: ScoreboardModel) => boolean,
  ms = 10_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const board = JSON.parse((await boards.get(gameId, 'live'))!) as ScoreboardModel;
    if (done(board) || Date.now() > deadline) return board;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const solvedCount = (board: ScoreboardModel) => board.items.reduce((sum, item) => sum + item.solvedCount, 0);

for (const engine of engines()) {
  describe(`scoreboard regeneration under a stream of solves (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    /**
     * A game with one challenge whose flag is `flag`, an accepted player, and a board cache of its
     * own with a pause of an hour, its empty board already built.
     */
    async function gameWithHourPause(flag: string) {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: [flag] });
      const player = await acceptedPlayer(ctx.app, game.id);
      const boards = new ScoreboardCache(ctx.app.db, createMemoryCache(), assert.ifError, () => 3_600_000);
      assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 0);
      return { game, challenge, player, boards };
    }

    test('a solve within the pause waits for it; an admin change and a reader waiting for idle do not', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{pause}'] });
      const [first, second] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      // A board cache of its own (the app's keeps its own copy), with a pause of an hour.
      const boards = new ScoreboardCache(ctx.app.db, createMemoryCache(), assert.ifError, () => 3_600_000);
      assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 0);

      await submit(first, game.id, challenge.id, 'flag{pause}');
      await ctx.app.flagChecker.idle();
      boards.refresh(game.id);
      // Inside the pause nothing is regenerated: half a second later the board still shows no solve
      // (a regeneration at once takes a few ms here).
      assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 0, 500)), 0);

      // An admin's change does not wait for the pause (an hour here; well within the 10 s read).
      boards.refresh(game.id, true);
      assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 0)), 1);

      await submit(second, game.id, challenge.id, 'flag{pause}');
      await ctx.app.flagChecker.idle();
      boards.refresh(game.id);
      // Whoever waits for an up-to-date board cuts the pause short.
      await boards.idle();
      assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 2);
    });

    test('a regeneration that fails is tried again by itself: the solve reaches the board with no other', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{retry}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      let failing = false;
      const errors: unknown[] = [];
      // In the shared build lock's seat: the build after the solve fails, as with the database gone a moment.
      const lock: BuildLock = {
        async coalesce(_gameId, build) {
          if (failing) {
            failing = false;
            throw new Error('connection terminated');
          }
          await build();
          return true;
        },
      };
      const boards = new ScoreboardCache(
        ctx.app.db,
        createMemoryCache(),
        (error) => errors.push(error),
        () => 0,
        lock,
      );
      try {
        assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 0);
        await submit(player, game.id, challenge.id, 'flag{retry}');
        await ctx.app.flagChecker.idle();
        failing = true;
        boards.refresh(game.id);
        assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 0)), 1);
        assert.deepEqual(
          errors.map((error) => String(error)),
          ['Error: connection terminated'],
        );
      } finally {
        boards.close();
      }
    });

    test('the judge emptying its queue ends the pause: the burst is judged, nothing is left to coalesce', async () => {
      const { game, challenge, player, boards } = await gameWithHourPause('flag{settle}');
      // The app's judge announces its empty queue (the app's own board cache settles on it).
      const drained = new Promise<void>((resolve) => ctx.app.flagChecker.events.once('drained', resolve));
      await submit(player, game.id, challenge.id, 'flag{settle}');
      await drained;
      boards.refresh(game.id);
      assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 0, 300)), 0);
      boards.settle();
      assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 0)), 1);
    });

    test('the judge emptying its queue during a build cuts the pause after that build short', async () => {
      const { game, challenge, player, boards } = await gameWithHourPause('flag{building}');
      await submit(player, game.id, challenge.id, 'flag{building}');
      await ctx.app.flagChecker.idle();
      let builds = 0;
      boards.events.on('built', () => (builds += 1));
      // An urgent request starts a build at once; a solve asks for another while it runs, and the
      // judge's drain arrives during it too.
      boards.refresh(game.id, true);
      boards.refresh(game.id);
      boards.settle();
      // Without the drain the second build would wait out the hour's pause.
      await boardWhen(boards, game.id, () => builds >= 2);
      assert.equal(builds, 2);
      assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 1);
    });

    test('while the judge still has work, a solve waits for its queue to empty, at most a second', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{stream}'] });
      const [first, second] = [await acceptedPlayer(ctx.app, game.id), await acceptedPlayer(ctx.app, game.id)];
      // No pause after a build: only the judge's state holds the builds back here.
      const boards = new ScoreboardCache(ctx.app.db, createMemoryCache(), assert.ifError, () => 0);
      assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 0);

      await submit(first, game.id, challenge.id, 'flag{stream}');
      await ctx.app.flagChecker.idle();
      // Submissions came in and are being judged: a burst's board is built once, after its last batch.
      boards.resumed();
      boards.refresh(game.id);
      assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 0, 300)), 0);
      boards.settle();
      assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 0, 500)), 1);

      // A stream that never lets the queue empty still reaches the board within about a second.
      await submit(second, game.id, challenge.id, 'flag{stream}');
      await ctx.app.flagChecker.idle();
      boards.resumed();
      const asked = Date.now();
      boards.refresh(game.id);
      assert.equal(solvedCount(await boardWhen(boards, game.id, (board) => solvedCount(board) > 1, 5_000)), 2);
      assert.ok(Date.now() - asked >= 900, `built after ${Date.now() - asked} ms`);
    });

    test('submissions coming in again after the drain keep a pause as long as the build before it', async () => {
      const { game, challenge, player, boards } = await gameWithHourPause('flag{resumed}');
      // The app's judge says so when a submission comes in after its queue emptied.
      await ctx.app.flagChecker.idle();
      const resumed = new Promise<void>((resolve) => ctx.app.flagChecker.events.once('resumed', resolve));
      await submit(player, game.id, challenge.id, 'flag{resumed}');
      await resumed;
      await ctx.app.flagChecker.idle();
      const built: Array<{ at: number; ms: number }> = [];
      boards.events.on('built', ({ ms }) => built.push({ at: Date.now(), ms }));
      // As above, but a submission comes in after the drain: the stream goes on, so the second
      // build waits as long as the first took (a quiet end of the burst would start it at once).
      boards.refresh(game.id, true);
      boards.refresh(game.id);
      boards.settle();
      boards.resumed();
      // The queue emptying again before the build ends does not make it quiet again.
      boards.settle();
      await boardWhen(boards, game.id, () => built.length >= 2);
      assert.equal(built.length, 2);
      const [first, second] = built as [{ at: number; ms: number }, { at: number; ms: number }];
      assert.ok(second.at - second.ms >= first.at + first.ms - 1, JSON.stringify(built));
      assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 1);
    });

    test('a new board is served here at once, while its writes to the shared cache are still under way', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{served}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      const shared = createMemoryCache();
      let held: Array<() => void> | undefined;
      // The shared cache's writes wait while `held` is set, as a slow Redis would.
      const cache = {
        ...shared,
        set: async (key: string, value: string | Buffer, ttlMs: number) => {
          if (held) await new Promise<void>((resolve) => held!.push(resolve));
          await shared.set(key, value, ttlMs);
        },
      };
      const boards = new ScoreboardCache(ctx.app.db, cache, assert.ifError);
      assert.equal(solvedCount(JSON.parse((await boards.get(game.id, 'live'))!) as ScoreboardModel), 0);

      await submit(player, game.id, challenge.id, 'flag{served}');
      await ctx.app.flagChecker.idle();
      held = [];
      boards.refresh(game.id, true);
      const board = await boardWhen(boards, game.id, (read) => solvedCount(read) > 0);
      assert.equal(solvedCount(board), 1);
      assert.ok(held.length > 0, 'the writes to the shared cache are still waiting');
      const stored = await shared.get(`_ScoreBoard_${game.id}`);
      assert.equal(solvedCount(JSON.parse(stored!) as ScoreboardModel), 0, 'the shared copy is still the old board');
      for (const release of held) release();
      held = undefined;
      await boards.idle();
      assert.equal(solvedCount(JSON.parse((await shared.get(`_ScoreBoard_${game.id}`))!) as ScoreboardModel), 1);
    });
  });
}
