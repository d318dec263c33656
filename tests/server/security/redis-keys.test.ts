import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ScoreboardModel } from '../../../server/src/modules/scoreboard/scoreboard';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, client, newChallenge, newGame, settle, submit, type Client } from '../game/support';

const redisUrl = process.env.REDIS_URL;

/** An app whose admin can drive the edit API. */
async function adminOf(ctx: TestApp): Promise<Client> {
  return client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
}

const board = async (admin: Client, gameId: number) => {
  const response = await admin('GET', `/api/game/${gameId}/scoreboard`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<ScoreboardModel>();
};

for (const engine of engines()) {
  describe(
    `Redis keys belong to their database (${engine.name})`,
    { skip: redisUrl ? false : 'REDIS_URL is not set' },
    () => {
      // Two platforms on two fresh databases, one Redis, the same REDIS_KEY_PREFIX: the case of a
      // database recreated (or a second event set up) next to a Redis that still holds the old keys.
      const prefix = `test-${randomBytes(6).toString('hex')}:`;
      let first: TestApp;
      let second: TestApp;
      before(async () => {
        first = await createTestApp(engine, { env: testEnv({ REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix }) });
        second = await createTestApp(engine, { env: testEnv({ REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix }) });
      });
      after(async () => {
        await first?.close();
        await second?.close();
      });

      test('a game with the same id on each database shows each its own scoreboard', async () => {
        assert.notEqual(first.app.installationId, second.app.installationId);
        assert.notEqual(first.app.redisPrefix, second.app.redisPrefix);
        assert.ok(first.app.redisPrefix.startsWith(prefix) && first.app.redisPrefix.includes(first.app.installationId));

        const firstAdmin = await adminOf(first);
        const secondAdmin = await adminOf(second);
        const firstGame = await newGame(firstAdmin);
        const secondGame = await newGame(secondAdmin);
        assert.equal(firstGame.id, secondGame.id, 'fresh databases hand out the same game id');

        // The first platform's game has a solve, and its board is built and stored in Redis.
        const challenge = await newChallenge(firstAdmin, firstGame.id, { flags: ['flag{first}'] });
        const player = await acceptedPlayer(first.app, firstGame.id);
        await submit(player, firstGame.id, challenge.id, 'flag{first}');
        await settle(first.app);
        const firstBoard = await board(firstAdmin, firstGame.id);
        assert.equal(firstBoard.items.length, 1);
        assert.ok(await first.app.redis!.exists(`${first.app.redisPrefix}cache:_ScoreBoard_${firstGame.id}`));

        // The second platform's game of the same id has nobody in it: its board must say so.
        const secondBoard = await board(secondAdmin, secondGame.id);
        assert.equal(secondBoard.items.length, 0, 'the second platform served the first one’s board');
        assert.deepEqual(secondBoard.challenges, {});
        assert.equal((await board(firstAdmin, firstGame.id)).items.length, 1);
      });

      test('the shared cache of one database is not read by the other', async () => {
        await first.app.cache.set('probe', 'first', 60_000);
        assert.equal(await second.app.cache.get('probe'), undefined);
        assert.equal(await first.app.cache.get('probe'), 'first');
      });
    },
  );
}

describe(
  'instances on one database share their Redis keys',
  { skip: redisUrl ? false : 'REDIS_URL is not set' },
  () => {
    const [engine] = engines();
    let one: TestApp;
    let two: TestApp;
    before(async () => {
      const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` };
      one = await createTestApp(engine!, { env: testEnv(env) });
      // A second instance on the same database, as another server process behind the load balancer.
      two = await createTestApp(engine!, {
        env: testEnv(env),
        database: { ...one.database, close: async () => {} },
      });
    });
    after(async () => {
      await two?.close();
      await one?.close();
    });

    test('the same prefix, the same cache and the same stored boards', async () => {
      assert.equal(one.app.installationId, two.app.installationId);
      assert.equal(one.app.redisPrefix, two.app.redisPrefix);
      await one.app.cache.set('probe', 'shared', 60_000);
      assert.equal(await two.app.cache.get('probe'), 'shared');

      const admin = await adminOf(one);
      const game = await newGame(admin);
      assert.equal((await board(admin, game.id)).items.length, 0);
      assert.ok(await two.app.redis!.exists(`${two.app.redisPrefix}cache:_ScoreBoard_${game.id}`));
    });
  },
);
