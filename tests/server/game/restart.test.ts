import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../../server/src/app';
import type { DatabaseHandle } from '../../../server/src/db/client';
import { solves, submissions } from '../../../server/src/db/schema';
import { testEnv } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, client, newChallenge, newGame, settle, statusOf } from './support';

for (const engine of engines()) {
  describe(`the judge queue survives a restart (${engine.name})`, () => {
    let database: DatabaseHandle;
    const env = testEnv();
    before(async () => {
      database = await engine.open();
    });
    after(async () => database.close());

    const start = async () => {
      const app = await buildApp({ env, database: { ...database, close: async () => {} }, logger: false });
      await app.ready();
      return app;
    };

    test('submissions acknowledged but not judged before a stop are judged by the next app', async () => {
      const first = await start();
      const admin = client(first, (await asUser(first, 'Admin')).cookie);
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{durable}'] });
      const players = [await acceptedPlayer(first, game.id), await acceptedPlayer(first, game.id)];
      // Stop the workers first: every submission is committed and acknowledged, and only the wrong
      // answers judged (the intake judges those to a static challenge itself).
      await first.flagChecker.stop();
      const ids: number[] = [];
      for (const player of players) {
        for (const flag of ['flag{durable}', 'flag{wrong}']) {
          const response = await player.api('POST', `/api/game/${game.id}/challenges/${challenge.id}`, { flag });
          assert.equal(response.statusCode, 200, response.body);
          ids.push(response.json<number>());
        }
      }
      const pending = await first.db.select().from(submissions).where(eq(submissions.status, 'FlagSubmitted'));
      assert.deepEqual(
        pending.map((row) => row.id).sort((a, b) => a - b),
        [ids[0], ids[2]],
      );
      await first.close();

      const second = await start();
      try {
        await settle(second);
        const judged = await second.db.select().from(submissions).where(eq(submissions.gameId, game.id));
        assert.deepEqual(judged.map((row) => row.status).sort(), [
          'Accepted',
          'Accepted',
          'WrongAnswer',
          'WrongAnswer',
        ]);
        assert.equal((await second.db.select().from(solves).where(eq(solves.challengeId, challenge.id))).length, 2);
        const player = { ...players[0]!, api: client(second, players[0]!.cookie) };
        assert.equal(await statusOf(player, game.id, challenge.id, ids[0]!), 'Accepted');
      } finally {
        await second.close();
      }
    });
  });
}
