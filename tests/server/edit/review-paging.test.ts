import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { teams } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { assertError, assertOk, client, createGame, joinTeam, type Client } from './support';

interface Item {
  id: number;
  team: { id: number; name: string; members: Array<{ userId: string }> };
  registeredMembers: string[];
  division: string | null;
  status: string;
}

for (const engine of engines()) {
  describe(`review list paging and filters (${engine.name})`, () => {
    let ctx: TestApp;
    let api: Client;
    let gameId: number;
    const ids: number[] = [];

    before(async () => {
      ctx = await createTestApp(engine);
      const { cookie } = await asUser(ctx.app, 'Admin');
      api = client(ctx.app, cookie);
      gameId = (await createGame(api, { divisions: ['Open', 'Student'] })).id;
      // 12 teams: statuses cycle, every third is a Student, names "Alpha 0".."Alpha 5" and "Bravo_6".."Bravo_11".
      const statuses = ['Pending', 'Accepted', 'Suspended', 'Rejected'] as const;
      for (let i = 0; i < 12; i += 1) {
        const { team, participation } = await joinTeam(
          ctx.app.db,
          gameId,
          statuses[i % 4],
          i % 3 === 0 ? 'Student' : 'Open',
        );
        await ctx.app.db
          .update(teams)
          .set({ name: i < 6 ? `Alpha ${i}` : `Bravo_${i}` })
          .where(eq(teams.id, team.id));
        ids.push(participation.id);
      }
    });
    after(async () => ctx.close());

    const list = async (query: string) => {
      const response = await api('GET', `/api/game/${gameId}/participations${query}`);
      const items = assertOk('gameParticipations', response) as Item[];
      return { items, total: Number(response.headers['x-total-count']) };
    };

    test('without paging parameters the answer is every participation, as GZCTF sends it', async () => {
      const { items, total } = await list('');
      assert.deepEqual(
        items.map((item) => item.id),
        ids,
      );
      assert.equal(total, 12);
      for (const item of items) {
        assert.equal(item.team.members.length, 1, 'each team keeps its own captain');
        assert.deepEqual(item.registeredMembers, []);
      }
    });

    test('count and skip give one page in team order; the total counts all pages', async () => {
      const first = await list('?count=5&skip=0');
      assert.deepEqual(
        first.items.map((item) => item.id),
        ids.slice(0, 5),
      );
      assert.equal(first.total, 12);
      const last = await list('?count=5&skip=10');
      assert.deepEqual(
        last.items.map((item) => item.id),
        ids.slice(10),
      );
      const beyond = await list('?count=5&skip=50');
      assert.deepEqual(beyond.items, []);
      assert.equal(beyond.total, 12, 'a page past the end still tells the total');
      const skipOnly = await list('?skip=11');
      assert.deepEqual(
        skipOnly.items.map((item) => item.id),
        ids.slice(11),
      );
    });

    test('status, division and search filter on the server, and combine', async () => {
      const accepted = await list('?count=50&status=Accepted');
      assert.deepEqual(
        accepted.items.map((item) => item.id),
        [ids[1], ids[5], ids[9]],
      );
      assert.equal(accepted.total, 3);
      const students = await list('?count=50&division=Student');
      assert.deepEqual(
        students.items.map((item) => item.id),
        [ids[0], ids[3], ids[6], ids[9]],
      );
      const search = await list('?count=2&search=%20alpha%20');
      assert.equal(search.total, 6, 'trimmed and case-insensitive');
      assert.equal(search.items.length, 2);
      // LIKE wildcards in the text are literal: "_" matches only the underscore names.
      assert.equal((await list('?count=50&search=o_')).total, 6);
      assert.equal((await list('?count=50&search=%25')).total, 0);
      const combined = await list('?count=50&status=Accepted&division=Student&search=bravo');
      assert.deepEqual(
        combined.items.map((item) => item.id),
        [ids[9]],
      );
      // Filters without paging keep the array answer, filtered.
      assert.equal((await list('?status=Pending')).items.length, 3);
    });

    test('bad paging and filter values are a 400 with a title, never read as something else', async () => {
      for (const query of [
        '?count=abc',
        '?count=',
        '?count=1.5',
        '?count=-1',
        '?count=0',
        '?count=%205',
        '?count=1e2',
        '?count=0x10',
        '?count=501',
        '?skip=-3',
        '?skip=07',
        '?count=5&count=6',
        '?status=Winning',
        `?search=${'x'.repeat(65)}`,
        '?search=a%00b',
      ]) {
        const response = await api('GET', `/api/game/${gameId}/participations${query}`);
        assertError('gameParticipations', response, 400);
        assert.equal(response.headers['x-total-count'], undefined, query);
      }
    });

    test('only admins list participations', async () => {
      const { cookie } = await asUser(ctx.app, 'Monitor');
      const response = await client(ctx.app, cookie)('GET', `/api/game/${gameId}/participations?count=5`);
      assertError('gameParticipations', response, 403);
    });
  });
}
