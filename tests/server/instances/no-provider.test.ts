import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, assertError, client, newChallenge, newGame, type Client } from '../game/support';

const [pglite] = engines();

describe('without a container backend (CONTAINER_PROVIDER=None)', () => {
  let ctx: TestApp;
  let admin: Client;
  before(async () => {
    ctx = await createTestApp(pglite!);
    admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
  });
  after(async () => ctx.close());

  test('container calls answer 400 with a clear title, never 500 or 501', async () => {
    const game = await newGame(admin);
    const challenge = await newChallenge(admin, game.id, { type: 'DynamicContainer' });
    await admin('PUT', `/api/edit/games/${game.id}/challenges/${challenge.id}`, {
      containerImage: 'example/challenge:1',
      containerExposePort: 8000,
    });
    const player = await acceptedPlayer(ctx.app, game.id);
    const calls = [
      ['gameCreateContainer', await player.api('POST', `/api/game/${game.id}/container/${challenge.id}`)],
      [
        'gameExtendContainerLifetime',
        await player.api('POST', `/api/game/${game.id}/container/${challenge.id}/extend`),
      ],
      ['gameDeleteContainer', await player.api('DELETE', `/api/game/${game.id}/container/${challenge.id}`)],
      [
        'editCreateTestContainer',
        await admin('POST', `/api/edit/games/${game.id}/challenges/${challenge.id}/container`),
      ],
    ] as const;
    for (const [operation, response] of calls) {
      assertError(operation, response, 400);
      assert.equal(response.json().title, 'Challenge containers are not available on this platform', operation);
    }
    // Nothing to list; the challenge view works and shows no instance.
    const list = await admin('GET', '/api/admin/instances');
    assert.deepEqual(list.json(), { data: [], length: 0, total: 0 });
    const detail = await player.api('GET', `/api/game/${game.id}/challenges/${challenge.id}`);
    assert.equal(detail.statusCode, 200, detail.body);
    assert.equal(detail.json().context.instanceEntry, null);
  });

  test('the context is checked before the engine: unknown game or challenge 404, a non-player 400', async () => {
    const game = await newGame(admin);
    const challenge = await newChallenge(admin, game.id, { type: 'DynamicContainer' });
    await admin('PUT', `/api/edit/games/${game.id}/challenges/${challenge.id}`, {
      containerImage: 'example/challenge:1',
      containerExposePort: 8000,
    });
    const player = await acceptedPlayer(ctx.app, game.id);
    const outsider = client(ctx.app, (await asUser(ctx.app, 'User')).cookie);
    const operations = [
      ['gameCreateContainer', 'POST', ''],
      ['gameExtendContainerLifetime', 'POST', '/extend'],
      ['gameDeleteContainer', 'DELETE', ''],
    ] as const;
    for (const [operation, method, suffix] of operations) {
      const unknownGame = await player.api(method, `/api/game/999999/container/${challenge.id}${suffix}`);
      assertError(operation, unknownGame, 404);
      const unknownChallenge = await player.api(method, `/api/game/${game.id}/container/999999${suffix}`);
      assertError(operation, unknownChallenge, 404);
      assert.equal(unknownChallenge.json().title, 'Challenge not found', operation);
      const notJoined = await outsider(method, `/api/game/${game.id}/container/${challenge.id}${suffix}`);
      assertError(operation, notJoined, 400);
      assert.equal(notJoined.json().title, 'You have not joined this game', operation);
    }
  });

  test('the proxy answers 400 while port mapping is not PlatformProxy', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/proxy/${randomUUID()}` });
    assertError('proxyProxyForInstance', response, 400);
  });
});
