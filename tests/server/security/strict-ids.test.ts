import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { client, newChallenge, newGame, type Client } from '../game/support';

/** Ids a lenient number parser would read as a number (most as 16); each must be refused. */
const HOSTILE_IDS = ['0x10', '1e1', '%2016', '16%20', '+16', '16.0', '0b10', '1_6', '%EF%BC%91%EF%BC%96', '-', 'NaN'];
const OUT_OF_RANGE = ['2147483648', '99999999999999999999', '-2147483649'];

function assertNamesField(response: LightMyRequestResponse, status: number, field: string, label: string): void {
  assert.equal(response.statusCode, status, `${label}: ${response.body}`);
  const body = response.json<{ title: string; status: number }>();
  assert.deepEqual(Object.keys(body).sort(), ['status', 'title']);
  assert.equal(body.status, status);
  assert.match(body.title, new RegExp(`\\b${field}\\b`), label);
}

for (const engine of engines()) {
  describe(`strict ids and query numbers (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: Client;
    let adminCookie: string;
    let gameId: number;
    let challengeId: number;

    before(async () => {
      ctx = await createTestApp(engine);
      adminCookie = (await asUser(ctx.app, 'Admin')).cookie;
      admin = client(ctx.app, adminCookie);
      gameId = (await newGame(admin)).id;
      challengeId = (await newChallenge(admin, gameId, { flags: ['flag{x}'] })).id;
    });
    after(async () => ctx.close());

    test('a path id is plain decimal digits within int32, or 400 naming it', async () => {
      const good = await admin('GET', `/api/game/${gameId}`);
      assert.equal(good.statusCode, 200, good.body);
      const absent = await admin('GET', '/api/game/16');
      assert.equal(absent.statusCode, 404, absent.body);
      for (const id of [...HOSTILE_IDS, ...OUT_OF_RANGE]) {
        assertNamesField(await admin('GET', `/api/game/${id}`), 400, 'id', id);
      }
      // The second id of a route is checked the same way, and named.
      const base = `/api/edit/games/${gameId}/challenges`;
      assert.equal((await admin('GET', `${base}/${challengeId}`)).statusCode, 200);
      for (const id of ['0x1', '1e0', `${challengeId}.0`]) {
        assertNamesField(await admin('GET', `${base}/${id}`), 400, 'cId', id);
      }
    });

    test('an undecodable or overlong path is refused with {title, status} before routing', async () => {
      const undecodable = await ctx.app.inject({
        method: 'GET',
        url: '/api/game/%ff',
        headers: { 'accept-language': 'fr-FR' },
      });
      assert.equal(undecodable.statusCode, 400);
      assert.deepEqual(undecodable.json(), { title: 'Requête invalide', status: 400 });
      const overlong = await admin('GET', `/api/game/${'1'.repeat(200)}`);
      assert.equal(overlong.statusCode, 414);
      assert.deepEqual(Object.keys(overlong.json()).sort(), ['status', 'title']);
    });

    test('query numbers and booleans are read only from their plain text form', async () => {
      const page = await admin('GET', '/api/game?count=5&skip=0');
      assert.equal(page.statusCode, 200, page.body);
      for (const count of ['0x5', '5e0', '%205', '5.0', '+5', '99999999999999999999']) {
        assertNamesField(await admin('GET', `/api/game?count=${count}`), 400, 'count', count);
      }
      assertNamesField(await admin('GET', '/api/game?count=5&count=6'), 400, 'count', 'sent twice');
      const events = `/api/game/${gameId}/events`;
      for (const flag of ['true', 'false']) {
        const response = await admin('GET', `${events}?hideContainer=${flag}`);
        assert.equal(response.statusCode, 200, `${flag}: ${response.body}`);
      }
      for (const flag of ['yes', '2', 'true%00']) {
        assertNamesField(await admin('GET', `${events}?hideContainer=${flag}`), 400, 'hideContainer', flag);
      }
    });

    test('the error names the parameter in the caller’s language', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/game/0x10',
        headers: { cookie: adminCookie, 'accept-language': 'zh-CN' },
      });
      assertNamesField(response, 400, 'id', 'zh-CN');
      const english = (await admin('GET', '/api/game/0x10')).json<{ title: string }>().title;
      assert.notEqual(response.json<{ title: string }>().title, english);
    });

    test('ids read by the additions and the hubs (feed, freeze, hub game) follow the same rule', async () => {
      for (const id of ['0x1', '1e0', '%201', '+1']) {
        assertNamesField(await admin('GET', `/api/game/${id}/ctftime.json`), 400, 'id', `ctftime ${id}`);
        assertNamesField(await admin('GET', `/api/game/${id}/freeze`), 400, 'id', `freeze ${id}`);
      }
      const hub = (game: string) =>
        ctx.app.inject({ method: 'POST', url: `/hub/user/negotiate?negotiateVersion=1&game=${game}` });
      assert.equal((await hub(String(gameId))).statusCode, 200);
      for (const game of [`0x${gameId.toString(16)}`, `${gameId}.0`, `%20${gameId}`, `${gameId}e0`]) {
        assert.equal((await hub(game)).statusCode, 404, game);
      }
    });
  });
}
