import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { SESSION_COOKIE } from '../../../server/src/plugins/app/session';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser, createUser } from '../helpers/users';

const PUBLIC_URL = 'https://ctf.example.org';

/** Opens a WebSocket and resolves with the HTTP status of the handshake: 101, or the refusal's. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.once('error', (error) => reject(error));
  });
}

for (const engine of engines()) {
  describe(`cross-site refusal (${engine.name})`, () => {
    let ctx: TestApp;
    let cookie: string;
    let base: string;

    before(async () => {
      ctx = await createTestApp(engine, { env: testEnv({ PUBLIC_URL }) });
      ({ cookie } = await asUser(ctx.app, 'Admin'));
      base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => ctx.close());

    /** A state-changing call an admin's browser could be made to send: it writes a post. */
    const createPost = (headers: Record<string, string>, title = 'cross-site test') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/edit/posts',
        payload: { title, summary: 's', content: 'c', tags: [], isPinned: false },
        headers: { cookie, host: 'ctf.local:8080', ...headers },
      });
    const postCount = async () => (await ctx.app.inject({ method: 'GET', url: '/api/posts' })).json<unknown[]>().length;

    test('a foreign Origin or Referer is refused with a translated 403, and nothing is written', async () => {
      const before = await postCount();
      const forged: Array<Record<string, string>> = [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: 'http://ctf.local:9090' },
        { origin: 'http://ctf.local.evil.example:8080' },
        { origin: 'https://ctf.example.org.evil.example' },
        { origin: 'not a url' },
        { referer: 'https://evil.example/ctf.local:8080/page' },
        // Origin decides when both are sent: a same-site Referer cannot vouch for a foreign Origin.
        { origin: 'https://evil.example', referer: 'http://ctf.local:8080/admin/posts' },
      ];
      for (const headers of forged) {
        const response = await createPost(headers);
        assert.equal(response.statusCode, 403, JSON.stringify(headers));
        assert.deepEqual(response.json(), { title: 'Request refused: it came from another site', status: 403 });
      }
      const german = await createPost({ origin: 'https://evil.example', 'accept-language': 'de-DE' });
      assert.deepEqual(german.json(), {
        title: 'Anfrage abgelehnt: Sie stammt von einer anderen Website',
        status: 403,
      });
      assert.equal(await postCount(), before);
    });

    test('every state-changing method is covered, anonymous routes included', async () => {
      const evil = { origin: 'https://evil.example' };
      const calls = [
        { method: 'POST', url: '/api/account/login', payload: { userName: 'Admin', password: 'x' } },
        { method: 'PUT', url: '/api/account/update', payload: { bio: 'pwned' }, headers: { cookie } },
        { method: 'DELETE', url: '/api/edit/posts/abc', headers: { cookie } },
        { method: 'POST', url: '/api/team', payload: { name: 'pwned' }, headers: { cookie } },
        { method: 'POST', url: '/hub/admin/negotiate', headers: { cookie } },
        { method: 'PATCH', url: '/api/nope', headers: { cookie } },
      ] as const;
      for (const call of calls) {
        const headers = { ...('headers' in call ? call.headers : {}), ...evil };
        const response = await ctx.app.inject({ ...call, headers });
        assert.equal(response.statusCode, 403, `${call.method} ${call.url}`);
        assert.equal(response.json<{ status: number }>().status, 403);
      }
    });

    test('our own origin (by Host, or PUBLIC_URL), and requests naming no origin at all, go through', async () => {
      const allowed: Array<Record<string, string>> = [
        { origin: 'http://ctf.local:8080' },
        { origin: 'HTTP://CTF.LOCAL:8080' },
        // Behind a TLS proxy the server sees plain HTTP: the scheme is not what makes a site foreign.
        { origin: 'https://ctf.local:8080' },
        { origin: PUBLIC_URL },
        { origin: `${PUBLIC_URL}:443` },
        { referer: 'http://ctf.local:8080/admin/posts?page=2' },
        { referer: `${PUBLIC_URL}/admin/posts` },
        {},
      ];
      for (const [index, headers] of allowed.entries()) {
        const response = await createPost(headers, `allowed ${index}`);
        assert.equal(response.statusCode, 200, `${JSON.stringify(headers)}: ${response.body}`);
      }
      // Reading is never refused: a GET changes nothing (and CORS keeps its answer from the other site).
      const read = await ctx.app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { cookie, origin: 'https://evil.example' },
      });
      assert.equal(read.statusCode, 200);
      // A default port in Host means the same origin as none.
      const defaultPort = await createPost({ host: 'ctf.local:80', origin: 'http://ctf.local' }, 'default port');
      assert.equal(defaultPort.statusCode, 200, defaultPort.body);
    });

    test('the container proxy answers for itself: it takes no session, and its callers are native daemons', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/proxy/00000000-0000-4000-8000-000000000000',
        headers: { origin: 'https://evil.example' },
      });
      assert.notEqual(response.statusCode, 403);
      assert.ok(response.statusCode < 500, response.body);
    });

    test('the session cookie is HttpOnly and SameSite=Lax', async () => {
      const user = await createUser(ctx.app);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { userName: user.userName, password: user.password },
      });
      assert.equal(response.statusCode, 200, response.body);
      const session = response.cookies.find((item) => item.name === SESSION_COOKIE);
      assert.ok(session);
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Lax');
      assert.equal(session.path, '/');
      // Sent over HTTPS (a trusted proxy said so, or COOKIE_SECURE), it is Secure as well.
      const logout = await ctx.app.inject({ method: 'POST', url: '/api/account/logout', headers: { cookie } });
      const cleared = logout.cookies.find((item) => item.name === SESSION_COOKIE);
      assert.equal(cleared?.httpOnly, true);
      assert.equal(cleared?.sameSite, 'Lax');
      ({ cookie } = await asUser(ctx.app, 'Admin'));
    });

    test('a hub refuses a WebSocket from another site before the handshake (cross-site WebSocket hijack)', async () => {
      const hub = `${base.replace(/^http/, 'ws')}/hub/admin`;
      const own = new URL(base).host;
      assert.equal(await upgradeStatus(hub, { cookie, origin: 'https://evil.example' }), 403);
      assert.equal(await upgradeStatus(hub, { cookie, origin: 'null' }), 403);
      assert.equal(await upgradeStatus(hub, { cookie, origin: `http://${own}` }), 101);
      assert.equal(await upgradeStatus(hub, { cookie, origin: PUBLIC_URL }), 101);
      // A non-browser client (no Origin) connects as before.
      assert.equal(await upgradeStatus(hub, { cookie }), 101);
      // Plain GETs of the hub path are not upgrades, so they are not this check's business.
      const plain = await ctx.app.inject({
        method: 'GET',
        url: '/hub/admin',
        headers: { origin: 'https://evil.example' },
      });
      assert.notEqual(plain.statusCode, 403);
    });
  });
}
