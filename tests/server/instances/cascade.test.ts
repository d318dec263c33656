import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, assertOk, client, newGame, type Client } from '../game/support';
import { containerChallenge, eventually, memoryEngine, type ContainerInfo } from './support';

/**
 * Deleting a game, challenge or team deletes its container rows by cascade; the proxy must stop
 * answering for them at once, not when its cached targets expire.
 */
for (const engine of engines()) {
  describe(`containers removed with what they belong to (${engine.name})`, () => {
    const memory = memoryEngine();
    let ctx: TestApp;
    let admin: Client;
    before(async () => {
      ctx = await createTestApp(engine, {
        env: testEnv({ PORT_MAPPING: 'PlatformProxy' }),
        instances: { backend: memory.backend },
      });
      admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
    });
    after(async () => ctx.close());

    const ping = (id: string) => ctx.app.inject({ method: 'GET', url: `/api/proxy/${id}` });

    test('a deleted game stops its containers and the proxy pings of them answer 404', async () => {
      const game = await newGame(admin);
      const challenge = await containerChallenge(admin, game.id, 'example/challenge:1');
      const player = await acceptedPlayer(ctx.app, game.id);
      const info = assertOk(
        'gameCreateContainer',
        await player.api('POST', `/api/game/${game.id}/container/${challenge.id}`),
      ) as ContainerInfo;
      // The entry is the row id; the ping caches its target.
      assert.equal((await ping(info.entry)).statusCode, 204);
      assert.equal(memory.running.size, 1);

      assert.equal((await admin('DELETE', `/api/edit/games/${game.id}`)).statusCode, 200);
      await eventually(async () => memory.running.size === 0);
      await eventually(async () => (await ping(info.entry)).statusCode === 404);
    });
  });
}
