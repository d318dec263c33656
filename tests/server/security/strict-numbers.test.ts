import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { challenges } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { client, createChallenge, createGame } from '../edit/support';

for (const engine of engines()) {
  describe(`numbers beyond a double in a JSON body (${engine.name})`, () => {
    let ctx: TestApp;
    let cookie: string;

    before(async () => {
      ctx = await createTestApp(engine);
      ({ cookie } = await asUser(ctx.app, 'Admin'));
    });
    after(async () => ctx.close());

    test('1e400 (Infinity once parsed) is refused with 400 and nothing is written; ordinary numbers pass', async () => {
      const api = client(ctx.app, cookie);
      const game = await createGame(api);
      const challenge = await createChallenge(api, game.id);
      const url = `/api/edit/games/${game.id}/challenges/${challenge.id}`;
      const stored = async () =>
        (
          await ctx.app.db
            .select({ difficulty: challenges.difficulty, minScoreRate: challenges.minScoreRate })
            .from(challenges)
            .where(eq(challenges.id, challenge.id))
        )[0];
      const before = await stored();

      for (const payload of ['{"difficulty":1e400}', '{"title":"x","difficulty":1e400}']) {
        const response = await ctx.app.inject({
          method: 'PUT',
          url,
          payload,
          headers: { cookie, 'content-type': 'application/json' },
        });
        assert.equal(response.statusCode, 400, `${payload}: ${response.body}`);
        const body = response.json<{ title: string; status: number }>();
        assert.deepEqual(Object.keys(body).sort(), ['status', 'title']);
        assert.equal(body.status, 400);
      }
      assert.deepEqual(await stored(), before);

      const ordinary = await ctx.app.inject({
        method: 'PUT',
        url,
        payload: '{"difficulty":2.5e0,"minScoreRate":0.5}',
        headers: { cookie, 'content-type': 'application/json' },
      });
      assert.equal(ordinary.statusCode, 200, ordinary.body);
      assert.deepEqual(await stored(), { difficulty: 2.5, minScoreRate: 0.5 });
    });
  });
}
