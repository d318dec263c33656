import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gameNotices } from '../../../server/src/db/schema';
import { NOTICE_LIST_MS, NoticeLists } from '../../../server/src/modules/notices/notice-lists';
import { engines } from '../helpers/database';
import { acceptedPlayer, assertOk, newChallenge, newGame, setTimes, settle, submit, suiteWithAdmin } from './support';

type Notice = { id: number; type: string; values: string[] };

for (const engine of engines()) {
  describe(`the players' notice list, cached per game (${engine.name})`, () => {
    const { ctx, admin } = suiteWithAdmin(engine);

    test('a notice posted, edited, deleted or won as a blood here shows in the very next poll', async () => {
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{n}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      await settle(ctx.app);
      const list = async () =>
        assertOk('gameNotices', await player.api('GET', `/api/game/${game.id}/notices`)) as Notice[];
      const before = await list();

      const posted = assertOk(
        'editAddGameNotice',
        await admin('POST', `/api/edit/games/${game.id}/notices`, { content: 'Rules updated' }),
      ) as Notice;
      assert.deepEqual(
        (await list()).map((notice) => notice.id),
        [posted.id, ...before.map((notice) => notice.id)],
      );

      const edited = await admin('PUT', `/api/edit/games/${game.id}/notices/${posted.id}`, { content: 'Rules v2' });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.deepEqual((await list()).find((notice) => notice.id === posted.id)?.values, ['Rules v2']);

      await submit(player, game.id, challenge.id, 'flag{n}');
      await settle(ctx.app);
      assert.ok((await list()).some((notice) => notice.type === 'FirstBlood'));

      const removed = await admin('DELETE', `/api/edit/games/${game.id}/notices/${posted.id}`);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.ok(!(await list()).some((notice) => notice.id === posted.id));

      // The route serves the cached list (its ETag is the list's), paging or not as the contract's
      // defaults; another page is read as asked.
      for (const query of ['', '?count=100', '?skip=0&count=100']) {
        const polled = await player.api('GET', `/api/game/${game.id}/notices${query}`);
        assert.equal(polled.headers.etag, `W/${(await ctx.app.noticeLists.get(game.id)).etag}`, query);
      }
      const paged = assertOk('gameNotices', await player.api('GET', `/api/game/${game.id}/notices?count=1&skip=0`));
      assert.equal((paged as Notice[]).length, 1);
    });

    test("another instance's change (written straight to the table) shows once the list's time is up", async () => {
      const game = await newGame(admin);
      let clock = Date.now();
      const lists = new NoticeLists(ctx.app.db, () => clock);
      const ids = async () => (JSON.parse((await lists.get(game.id)).json) as Notice[]).map((notice) => notice.id);
      const first = await lists.get(game.id);
      assert.equal(await lists.get(game.id), first, 'served from memory');
      const [row] = await ctx.app.db
        .insert(gameNotices)
        .values({ gameId: game.id, type: 'Normal', values: ['From elsewhere'] })
        .returning();
      clock += NOTICE_LIST_MS - 1;
      assert.ok(!(await ids()).includes(row!.id));
      clock += 2;
      assert.ok((await ids()).includes(row!.id));
    });

    test('a game not started (or missing) is refused on every request, never kept', async () => {
      const game = await newGame(admin);
      const player = await acceptedPlayer(ctx.app, game.id);
      await setTimes(ctx.app, game.id, 3_600_000, 7_200_000);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const early = await player.api('GET', `/api/game/${game.id}/notices`);
        assert.equal(early.statusCode, 400, early.body);
      }
      await setTimes(ctx.app, game.id, -60_000, 3_600_000);
      const started = await player.api('GET', `/api/game/${game.id}/notices`);
      assert.equal(started.statusCode, 200, started.body);
      const missing = await player.api('GET', '/api/game/999999/notices');
      assert.equal(missing.statusCode, 404, missing.body);
    });
  });
}
