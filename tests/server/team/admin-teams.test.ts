import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { files, teams } from '../../../server/src/db/schema';
import { blobExists } from '../../../server/src/lib/blobs';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';
import { assertError, caller, createTeamVia, joinVia, memberIds, player, teamRow, uniqueTeamName } from './support';

for (const engine of engines()) {
  describe(`admin teams (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: ReturnType<typeof caller>;
    before(async () => {
      ctx = await createTestApp(engine);
      admin = caller(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
    });
    after(async () => ctx.close());

    const teamCount = async () => (await ctx.app.db.select({ n: count() }).from(teams))[0]!.n;

    test('lists teams a page at a time with members and the total of all teams', async () => {
      const captain = await player(ctx.app);
      const first = await createTeamVia(captain);
      const member = await player(ctx.app);
      await joinVia(captain, member, first.id);
      for (let i = 0; i < 3; i++) await createTeamVia(await player(ctx.app));

      const all = await admin('GET', '/api/admin/teams');
      assert.equal(all.statusCode, 200);
      const body = all.json();
      assertMatchesContract('adminGetTeams', body);
      assert.equal(body.total, await teamCount());
      assert.equal(body.length, body.data.length);
      const listed = body.data.find((team: { id: number }) => team.id === first.id);
      assert.equal(listed.members.length, 2);

      const page = (await admin('GET', '/api/admin/teams?count=2&skip=1')).json();
      assertMatchesContract('adminGetTeams', page);
      assert.equal(page.length, 2);
      assert.equal(page.total, body.total);
      assert.deepEqual(page.data, body.data.slice(1, 3));
      for (const query of ['count=501', 'count=-1', 'skip=-1']) {
        assertError('adminGetTeams', await admin('GET', `/api/admin/teams?${query}`), 400);
      }
    });

    test('searches by name (case-insensitively) or by id, at most 30', async () => {
      const name = uniqueTeamName('Srch');
      const team = await createTeamVia(await player(ctx.app), name);
      const byName = await admin('POST', `/api/admin/teams/search?hint=${name.toLowerCase().slice(0, 8)}`);
      assert.equal(byName.statusCode, 200);
      assertMatchesContract('adminSearchTeams', byName.json());
      assert.deepEqual(
        byName.json().data.map((item: { id: number }) => item.id),
        [team.id],
      );
      const byId = (await admin('POST', `/api/admin/teams/search?hint=${team.id}`)).json();
      assert.ok(byId.data.some((item: { id: number }) => item.id === team.id));
      assert.equal((await admin('POST', '/api/admin/teams/search?hint=%25')).json().length, 0, '% is literal');

      const many = await player(ctx.app);
      for (let i = 0; i < 3; i++) await createTeamVia(many, `bulk${i}`);
      for (let i = 0; i < 30; i++) await createTeamVia(await player(ctx.app), `bulk${i + 3}`);
      const capped = (await admin('POST', '/api/admin/teams/search?hint=BULK')).json();
      assert.equal(capped.length, 30);
      assert.equal(capped.total, 30);
    });

    test('updates name, bio and lock; empty values keep the old ones', async () => {
      const team = await createTeamVia(await player(ctx.app));
      const response = await admin('PUT', `/api/admin/teams/${team.id}`, {
        name: 'Renamed',
        bio: 'by admin',
        locked: true,
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      let row = await teamRow(ctx.app, team.id);
      assert.equal(row?.name, 'Renamed');
      assert.equal(row?.bio, 'by admin');
      assert.equal(row?.locked, true);

      assert.equal(
        (await admin('PUT', `/api/admin/teams/${team.id}`, { name: '', bio: '', locked: null })).statusCode,
        200,
      );
      assert.equal((await admin('PUT', `/api/admin/teams/${team.id}`, {})).statusCode, 200);
      row = await teamRow(ctx.app, team.id);
      assert.equal(row?.name, 'Renamed');
      assert.equal(row?.bio, 'by admin');
      assert.equal(row?.locked, true);

      assertError('adminUpdateTeam', await admin('PUT', `/api/admin/teams/${team.id}`, { name: 'n'.repeat(21) }), 400);
      assertError('adminUpdateTeam', await admin('PUT', `/api/admin/teams/${team.id}`, { bio: 'b'.repeat(73) }), 400);
      assertError(
        'adminUpdateTeam',
        await admin('PUT', '/api/admin/teams/999999', { name: 'x' }),
        400,
        'Team not found',
      );
      assert.deepEqual(await teamRow(ctx.app, team.id), row);
    });

    test('deletes a team whatever its lock, releasing its avatar; a missing team is 404', async () => {
      const captain = await player(ctx.app);
      const team = await createTeamVia(captain);
      const member = await player(ctx.app);
      await joinVia(captain, member, team.id);
      const picture = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#0a0b0c' } })
        .png()
        .toBuffer();
      const upload = multipart([{ field: 'file', filename: 'a.png', content: picture, contentType: 'image/png' }]);
      const avatar = await ctx.app.inject({
        method: 'PUT',
        url: `/api/team/${team.id}/avatar`,
        headers: { ...upload.headers, cookie: captain.cookie },
        payload: upload.payload,
      });
      const hash = /([0-9a-f]{64})/.exec(avatar.json())![1]!;
      await admin('PUT', `/api/admin/teams/${team.id}`, { locked: true });

      const response = await admin('DELETE', `/api/admin/teams/${team.id}`);
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      assert.equal(await teamRow(ctx.app, team.id), undefined);
      assert.deepEqual(await memberIds(ctx.app, team.id), []);
      assert.equal((await ctx.app.db.select().from(files).where(eq(files.hash, hash))).length, 0);
      assert.equal(blobExists(ctx.env.dataDir, hash), false);
      assertError('adminDeleteTeam', await admin('DELETE', `/api/admin/teams/${team.id}`), 404, 'Team not found');
    });

    test('users and monitors get 403, signed-out callers 401, and nothing changes', async () => {
      const team = await createTeamVia(await player(ctx.app));
      const before = await teamRow(ctx.app, team.id);
      const calls: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
        ['adminGetTeams', 'GET', '/api/admin/teams'],
        ['adminSearchTeams', 'POST', '/api/admin/teams/search?hint=x'],
        ['adminUpdateTeam', 'PUT', `/api/admin/teams/${team.id}`, { name: 'hacked', locked: true }],
        ['adminDeleteTeam', 'DELETE', `/api/admin/teams/${team.id}`],
      ];
      const user = caller(ctx.app, (await asUser(ctx.app, 'User')).cookie);
      const monitor = caller(ctx.app, (await asUser(ctx.app, 'Monitor')).cookie);
      const anonymous = caller(ctx.app);
      for (const [operationId, method, url, payload] of calls) {
        assertError(operationId, await user(method, url, payload), 403);
        assertError(operationId, await monitor(method, url, payload), 403);
        assertError(operationId, await anonymous(method, url, payload), 401);
      }
      assert.deepEqual(await teamRow(ctx.app, team.id), before);
    });
  });
}
