import assert from 'node:assert/strict';
import net from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { submissions, teams } from '../../../server/src/db/schema';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser, type TestUser } from '../helpers/users';
import { acceptedPlayer, client, newChallenge, newGame } from '../game/support';

/** A `{title, status}` error of the given status, with a translated title. */
function assertProblem(response: LightMyRequestResponse, status: number, titlePattern?: RegExp): string {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json<{ title: string; status: number }>();
  assert.deepEqual(Object.keys(body).sort(), ['status', 'title']);
  assert.equal(body.status, status);
  assert.doesNotMatch(body.title, /^(error|validation)\./, 'the message key was translated');
  if (titlePattern) assert.match(body.title, titlePattern);
  return body.title;
}

const form = (fields: Record<string, string>) => multipart([], fields);

for (const engine of engines()) {
  describe(`strict request bodies (${engine.name})`, () => {
    let ctx: TestApp;
    let user: TestUser;
    let cookie: string;
    const teamCount = async () => (await ctx.app.db.select({ id: teams.id }).from(teams)).length;
    const inject = (options: InjectOptions) => ctx.app.inject(options);

    before(async () => {
      ctx = await createTestApp(engine);
      ({ user, cookie } = await asUser(ctx.app));
    });
    after(async () => ctx.close());

    test('a multipart, text or form body to a JSON route is 415 in the caller’s language, and nothing is written', async () => {
      const before = await teamCount();
      const bodies: { payload: string | Buffer; headers: Record<string, string> }[] = [
        form({ name: 'Night Owls', userName: user.userName, password: user.password }),
        { payload: JSON.stringify({ name: 'Night Owls' }), headers: { 'content-type': 'text/plain' } },
        { payload: 'name=Night+Owls', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        { payload: '<name>Night Owls</name>', headers: { 'content-type': 'application/xml' } },
        { payload: '{"name":"Night Owls"}', headers: { 'content-type': 'application/json-patch+json' } },
      ];
      for (const body of bodies) {
        const team = await inject({ method: 'POST', url: '/api/team', ...body, headers: { ...body.headers, cookie } });
        assertProblem(team, 415, /content type/i);
        const login = await inject({ method: 'POST', url: '/api/account/login', ...body });
        assertProblem(login, 415);
        assert.equal(login.cookies.length, 0, 'no session was made');
      }
      // Who may call comes first, as in GZCTF: a signed-out caller hears 401, not 415.
      const signedOut = await inject({ method: 'POST', url: '/api/team', ...form({ name: 'x' }) });
      assertProblem(signedOut, 401);
      const chinese = await inject({
        method: 'POST',
        url: '/api/team',
        ...form({ name: 'x' }),
        headers: { ...form({ name: 'x' }).headers, cookie, 'accept-language': 'zh-CN' },
      });
      assertProblem(chinese, 415, /不支持的内容类型/);
      assert.equal(await teamCount(), before);
    });

    test('a JSON body to an upload route, or any body to a route that takes none, is 415', async () => {
      const avatar = await inject({
        method: 'PUT',
        url: '/api/account/avatar',
        payload: { file: 'x' },
        headers: { cookie },
      });
      assertProblem(avatar, 415);
      const logout = await inject({ method: 'POST', url: '/api/account/logout', payload: {}, headers: { cookie } });
      assertProblem(logout, 415);
      // The refused sign-out did nothing: the session still works.
      const profile = await inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      assert.equal(profile.statusCode, 200, profile.body);
      // An empty body with any (or no) content type is no body at all: the route answers as usual.
      for (const type of ['text/plain;charset=UTF-8', 'application/json', 'application/octet-stream', undefined]) {
        const headers: Record<string, string> = type ? { cookie, 'content-type': type } : { cookie };
        const empty = await inject({ method: 'PUT', url: '/api/team/999999/invite', headers });
        assertProblem(empty, 404);
      }
    });

    test('JSON in a charset other than UTF-8 is 415; UTF-8 JSON with parameters is read', async () => {
      const credentials = JSON.stringify({ userName: user.userName, password: user.password });
      for (const charset of ['iso-8859-1', 'utf-16', '"windows-1252"']) {
        const response = await inject({
          method: 'POST',
          url: '/api/account/login',
          payload: credentials,
          headers: { 'content-type': `application/json; charset=${charset}` },
        });
        assertProblem(response, 415);
      }
      for (const type of ['application/json; charset=UTF-8', 'Application/JSON', 'application/json;charset="utf-8"']) {
        const response = await inject({
          method: 'POST',
          url: '/api/account/login',
          payload: credentials,
          headers: { 'content-type': type },
        });
        assert.equal(response.statusCode, 200, `${type}: ${response.body}`);
      }
    });

    test('JSON values are not coerced: a wrong type is 400 naming the field, and nothing is written', async () => {
      const before = await teamCount();
      for (const name of [12345, true, ['Night Owls'], { text: 'Night Owls' }]) {
        const response = await inject({ method: 'POST', url: '/api/team', payload: { name }, headers: { cookie } });
        assertProblem(response, 400, /\bname\b/);
      }
      // A number sent as text where the contract says integer is refused too.
      const join = await inject({ method: 'POST', url: '/api/game/1', payload: { teamId: '1' }, headers: { cookie } });
      assertProblem(join, 400, /\bteamId\b/);
      // A body that is JSON but not an object.
      for (const payload of ['"Night Owls"', '[]', '42', 'null']) {
        const response = await inject({
          method: 'POST',
          url: '/api/team',
          payload,
          headers: { cookie, 'content-type': 'application/json' },
        });
        assertProblem(response, 400);
      }
      assert.equal(await teamCount(), before);
    });

    test('a flag sent as a number or an array is 400 naming flag and is never judged', async () => {
      const admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['12345'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      for (const flag of [12345, ['12345'], null, { flag: '12345' }]) {
        const response = await player.api('POST', `/api/game/${game.id}/challenges/${challenge.id}`, { flag });
        assertProblem(response, 400, /\bflag\b/);
      }
      assert.equal((await ctx.app.db.select({ id: submissions.id }).from(submissions)).length, 0);
      const text = await player.api('POST', `/api/game/${game.id}/challenges/${challenge.id}`, { flag: '12345' });
      assert.equal(text.statusCode, 200, text.body);
    });

    test('unknown fields are ignored, as GZCTF ignores them', async () => {
      const response = await inject({
        method: 'POST',
        url: '/api/team',
        payload: { name: 'Extra Fields', bio: 'ok', captainId: 'someone else', locked: true },
        headers: { cookie },
      });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json<{ name: string; locked: boolean; members: { id: string }[] }>();
      assert.equal(body.name, 'Extra Fields');
      assert.equal(body.locked, false);
      assert.deepEqual(
        body.members.map((member) => member.id),
        [user.id],
      );
    });

    test('a missing or empty body where one is required is 400, never 500', async () => {
      const none = await inject({ method: 'POST', url: '/api/account/login' });
      assertProblem(none, 400, /\bbody\b/);
      const emptyJson = await inject({
        method: 'POST',
        url: '/api/account/login',
        headers: { 'content-type': 'application/json' },
      });
      assertProblem(emptyJson, 400);
      const broken = await inject({
        method: 'POST',
        url: '/api/account/login',
        payload: '{"userName": "a", ',
        headers: { 'content-type': 'application/json' },
      });
      assertProblem(broken, 400);
      const poisoned = await inject({
        method: 'POST',
        url: '/api/team',
        payload: '{"name": "Proto", "__proto__": {"isAdmin": true}}',
        headers: { cookie, 'content-type': 'application/json' },
      });
      assertProblem(poisoned, 400);
    });

    test('invalid UTF-8 in a JSON body is 400 and nothing is written', async () => {
      const before = await teamCount();
      const sequences = [
        [0xff, 0xfe], // never valid
        [0xc0, 0xaf], // an overlong '/'
        [0xed, 0xa0, 0x80], // a UTF-16 surrogate
        [0xe2, 0x82], // truncated
      ];
      for (const bytes of sequences) {
        const payload = Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from(bytes), Buffer.from('"}')]);
        const response = await inject({
          method: 'POST',
          url: '/api/team',
          payload,
          headers: { cookie, 'content-type': 'application/json' },
        });
        assertProblem(response, 400, /UTF-8/);
      }
      const german = await inject({
        method: 'POST',
        url: '/api/team',
        payload: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
        headers: { cookie, 'content-type': 'application/json', 'accept-language': 'de-DE' },
      });
      assertProblem(german, 400, /kein gültiges UTF-8/);
      assert.equal(await teamCount(), before);
      const valid = await inject({
        method: 'POST',
        url: '/api/team',
        payload: { name: 'Ünïcødé 🦉' },
        headers: { cookie },
      });
      assert.equal(valid.statusCode, 200, valid.body);
    });

    test('an oversized JSON body is 413, whether its length is announced or streamed', async () => {
      const before = await teamCount();
      const huge = JSON.stringify({ name: 'x', bio: 'b'.repeat(2 * 1024 * 1024) });
      const announced = await inject({
        method: 'POST',
        url: '/api/team',
        payload: huge,
        headers: { cookie, 'content-type': 'application/json' },
      });
      assertProblem(announced, 413);
      const streamed = await inject({
        method: 'POST',
        url: '/api/team',
        payload: Readable.from([Buffer.from(huge)]),
        headers: { cookie, 'content-type': 'application/json' },
      });
      assertProblem(streamed, 413);
      assert.equal(await teamCount(), before);
    });

    test('a body announced too large is refused before it is sent', async () => {
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      // Only the headers go out; a server reading the whole body first would never answer.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let text = '';
        socket.setTimeout(60_000, () => reject(new Error('no answer before the body was sent')));
        socket.on('data', (chunk) => {
          text += chunk.toString('latin1');
          if (text.includes('\r\n\r\n') && text.includes('"status"')) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
        socket.write(
          'POST /api/team HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            `Cookie: ${cookie}\r\nContent-Length: ${512 * 1024 * 1024}\r\n\r\n{"name":"`,
        );
      });
      assert.match(answer, /^HTTP\/1\.1 413 /);
      assert.match(answer, /"status":413/);
    });

    test('a malformed multipart body is 400 and stores nothing', async () => {
      const bodies = [
        { payload: 'xx', type: 'multipart/form-data' }, // no boundary
        { payload: 'xx', type: 'multipart/form-data; boundary=abc' }, // no part at all
        {
          // ends in the middle of the file
          payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nhello',
          type: 'multipart/form-data; boundary=abc',
        },
      ];
      for (const { payload, type } of bodies) {
        const response = await inject({
          method: 'PUT',
          url: '/api/account/avatar',
          payload,
          headers: { cookie, 'content-type': type },
        });
        assertProblem(response, 400);
      }
      const profile = await inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      assert.equal(profile.json<{ avatar: string | null }>().avatar, null);
    });

    test('a multipart body with too many form fields is 413; uploads keep their own limits', async () => {
      const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, 'x']));
      const many = multipart([{ field: 'file', filename: 'a.png', content: 'x', contentType: 'image/png' }], fields);
      const response = await inject({
        method: 'PUT',
        url: '/api/account/avatar',
        ...many,
        headers: { ...many.headers, cookie },
      });
      assertProblem(response, 413);
      const big = multipart([
        { field: 'file', filename: 'a.png', content: Buffer.alloc(3 * 1024 * 1024 + 1), contentType: 'image/png' },
      ]);
      const tooBig = await inject({
        method: 'PUT',
        url: '/api/account/avatar',
        ...big,
        headers: { ...big.headers, cookie },
      });
      assertProblem(tooBig, 400);
    });
  });
}
