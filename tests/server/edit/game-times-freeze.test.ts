import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { assertError, assertOk, client, createGame, gameBody, type Client } from './support';

const HOUR = 3_600_000;

for (const engine of engines()) {
  describe(`a game's new times keep its scoreboard freeze inside them (${engine.name})`, () => {
    let ctx: TestApp;
    let api: Client;

    before(async () => {
      ctx = await createTestApp(engine);
      api = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
    });
    after(async () => ctx.close());

    const times = async (id: number) => {
      const game = assertOk('editGetGame', await api('GET', `/api/edit/games/${id}`)) as { start: number; end: number };
      return { start: game.start, end: game.end };
    };
    const freezeOf = async (id: number) => (await api('GET', `/api/game/${id}/freeze`)).json<{ freezeAt: unknown }>();

    test('times that leave the freeze outside are refused with the freeze message, and nothing changes', async () => {
      const now = Date.now();
      const body = gameBody({ start: now - HOUR, end: now + HOUR });
      const game = await createGame(api, body);
      const freezeAt = now + HOUR / 2;
      assert.equal((await api('PUT', `/api/game/${game.id}/freeze`, { freezeAt })).statusCode, 200);
      const before = await times(game.id);

      for (const moved of [
        { start: freezeAt + 1, end: now + 2 * HOUR },
        { start: now - HOUR, end: freezeAt - 1 },
        { start: now + 3 * HOUR, end: now + 4 * HOUR },
      ]) {
        const refused = await ctx.app.inject({
          method: 'PUT',
          url: `/api/edit/games/${game.id}`,
          payload: { ...body, ...moved },
          headers: { cookie: (await asUser(ctx.app, 'Admin')).cookie, 'accept-language': 'de-DE' },
        });
        assertError('editUpdateGame', refused, 400);
        assert.deepEqual(refused.json(), {
          title: 'Der Einfrierzeitpunkt muss zwischen Beginn und Ende des Wettbewerbs liegen',
          status: 400,
        });
      }
      assert.deepEqual(await times(game.id), before);
      assert.deepEqual(await freezeOf(game.id), { freezeAt });

      // Times that still hold the freeze (its bounds included) are taken; without a freeze, any are.
      for (const moved of [
        { start: freezeAt, end: now + 2 * HOUR },
        { start: now - 2 * HOUR, end: freezeAt },
      ]) {
        assertOk('editUpdateGame', await api('PUT', `/api/edit/games/${game.id}`, { ...body, ...moved }));
        assert.deepEqual(await times(game.id), moved);
      }
      assert.equal((await api('PUT', `/api/game/${game.id}/freeze`, { freezeAt: null })).statusCode, 200);
      const later = { start: now + 3 * HOUR, end: now + 4 * HOUR };
      assertOk('editUpdateGame', await api('PUT', `/api/edit/games/${game.id}`, { ...body, ...later }));
      assert.deepEqual(await times(game.id), later);
      assertError('editUpdateGame', await api('PUT', '/api/edit/games/999999', gameBody()), 404);
    });
  });
}
