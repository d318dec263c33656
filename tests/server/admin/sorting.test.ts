import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as fixtures from '../db/fixtures';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { assertError, assertOk, client, type Client } from '../edit/support';

// Server-side sorting of the admin grids (beyond GZCTF: `sort`, `order`). Each test makes its own rows
// and reads only those out of the full answer, so rows of other tests cannot disturb the order.

const at = (iso: string) => new Date(iso);
const byId = <T extends { id: string | number }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

for (const engine of engines()) {
  describe(`admin grid sorting (${engine.name})`, () => {
    let ctx: TestApp;
    let api: Client;

    before(async () => {
      ctx = await createTestApp(engine);
      api = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
    });
    after(async () => ctx.close());

    /** The ids of `mine`, in the order the whole list came back in. */
    async function orderOf<T extends string | number>(operationId: string, url: string, mine: T[]): Promise<T[]> {
      const body = assertOk(operationId, await api('GET', url)) as { data: Array<{ id: T }> };
      return body.data.map((row) => row.id).filter((id) => mine.includes(id));
    }

    /** Every row of a sorted list, read `size` at a time: pages must tile the list without overlap. */
    async function pagedIds(url: string, size: number): Promise<Array<string | number>> {
      const ids: Array<string | number> = [];
      for (let skip = 0; ; skip += size) {
        const page = (await api('GET', `${url}&count=${size}&skip=${skip}`)).json<{ data: Array<{ id: string }> }>();
        ids.push(...page.data.map((row) => row.id));
        if (page.data.length < size) return ids;
      }
    }

    test('users sort by name case-insensitively, both ways, with ties broken by id', async () => {
      const suffix = Date.now().toString(36).slice(-5);
      const [b, a, c] = await Promise.all(
        [`Bs${suffix}`, `as${suffix}`, `Cs${suffix}`].map((userName) => fixtures.createUser(ctx.app.db, { userName })),
      );
      const mine = [a!.id, b!.id, c!.id];
      const asc = await orderOf('adminGetUsers', '/api/admin/users?count=500&sort=userName', mine);
      assert.deepEqual(asc, mine);
      const desc = await orderOf('adminGetUsers', '/api/admin/users?count=500&sort=userName&order=desc', mine);
      assert.deepEqual(desc, [...mine].reverse());
    });

    test('users sort by last visit and registration; equal times keep the id order on every page', async () => {
      const same = at('2021-03-04T05:06:07Z');
      const tied = await Promise.all(
        [0, 1, 2].map(() => fixtures.createUser(ctx.app.db, { registerAt: same, lastVisitedAt: same })),
      );
      const early = await fixtures.createUser(ctx.app.db, {
        registerAt: at('2020-01-01T00:00:00Z'),
        lastVisitedAt: at('2025-01-01T00:00:00Z'),
      });
      const tiedIds = [...tied].sort(byId).map((user) => user.id);
      const mine = [early.id, ...tiedIds];

      assert.deepEqual(await orderOf('adminGetUsers', '/api/admin/users?count=500', mine), mine, 'default order');
      assert.deepEqual(await orderOf('adminGetUsers', '/api/admin/users?count=500&sort=registerTimeUtc', mine), mine);
      assert.deepEqual(
        await orderOf('adminGetUsers', '/api/admin/users?count=500&sort=lastVisitedUtc&order=desc', mine),
        [early.id, ...[...tiedIds].reverse()],
      );

      const whole = await orderOf('adminGetUsers', '/api/admin/users?count=500&sort=registerTimeUtc&order=desc', mine);
      const paged = (await pagedIds('/api/admin/users?sort=registerTimeUtc&order=desc', 2)).filter((id) =>
        mine.includes(id as string),
      );
      assert.deepEqual(paged, whole, 'pages of two tile the sorted list');
    });

    test('teams sort by name and by locked, ties by id; the default is by id', async () => {
      const captain = await fixtures.createUser(ctx.app.db);
      const suffix = Date.now().toString(36).slice(-5);
      const zed = await fixtures.createTeam(ctx.app.db, captain.id, { name: `Zt${suffix}`, locked: true });
      const alpha = await fixtures.createTeam(ctx.app.db, captain.id, { name: `at${suffix}` });
      const mid = await fixtures.createTeam(ctx.app.db, captain.id, { name: `Mt${suffix}`, locked: true });
      const mine = [zed.id, alpha.id, mid.id];

      assert.deepEqual(await orderOf('adminGetTeams', '/api/admin/teams?count=500', mine), mine);
      assert.deepEqual(await orderOf('adminGetTeams', '/api/admin/teams?count=500&sort=name', mine), [
        alpha.id,
        mid.id,
        zed.id,
      ]);
      assert.deepEqual(await orderOf('adminGetTeams', '/api/admin/teams?count=500&sort=locked&order=desc', mine), [
        mid.id,
        zed.id,
        alpha.id,
      ]);
    });

    test('games sort by start and title; the default is newest id first', async () => {
      const suffix = Date.now().toString(36).slice(-5);
      const late = await fixtures.createGame(ctx.app.db, { title: `A${suffix}`, startAt: at('2030-01-01T00:00:00Z') });
      const soon = await fixtures.createGame(ctx.app.db, { title: `b${suffix}`, startAt: at('2029-01-01T00:00:00Z') });
      const mine = [late.id, soon.id];

      assert.deepEqual(await orderOf('editGetGames', '/api/edit/games?count=100', mine), [soon.id, late.id]);
      assert.deepEqual(await orderOf('editGetGames', '/api/edit/games?count=100&sort=start', mine), [soon.id, late.id]);
      assert.deepEqual(await orderOf('editGetGames', '/api/edit/games?count=100&sort=title&order=desc', mine), [
        soon.id,
        late.id,
      ]);
      assert.deepEqual(await orderOf('editGetGames', '/api/edit/games?count=100&sort=title', mine), [late.id, soon.id]);
    });

    test('a column outside the whitelist or an unknown direction is a 400', async () => {
      const cases: Array<[string, string]> = [
        ['adminGetUsers', '/api/admin/users?sort=passwordHash'],
        ['adminGetUsers', '/api/admin/users?sort=userName&order=sideways'],
        ['adminGetUsers', '/api/admin/users?sort=userName&order=DESC'],
        ['adminGetUsers', '/api/admin/users?sort='],
        ['adminGetUsers', '/api/admin/users?sort=user_name;drop%20table%20users'],
        ['adminGetTeams', '/api/admin/teams?sort=inviteToken'],
        ['adminGetTeams', '/api/admin/teams?order=up'],
        ['editGetGames', '/api/edit/games?sort=privateKey'],
      ];
      for (const [operationId, url] of cases) assertError(operationId, await api('GET', url), 400);
    });
  });
}
