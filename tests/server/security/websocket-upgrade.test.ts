import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { HUB_SOCKETS_PER_USER } from '../../../server/src/plugins/app/hubs';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { client, newGame } from '../game/support';
import { parseRawAnswer } from '../helpers/raw-http';

interface Answer {
  status: number;
  /** The body of a refused upgrade (empty for a 101). */
  body: string;
  /** The head's lines, lower-cased names. */
  headers: Record<string, string>;
  /** An accepted upgrade's socket when asked to keep it open, else undefined. */
  socket?: net.Socket;
}

/**
 * A WebSocket upgrade sent by hand on a raw socket, so nothing in a client library hides what the
 * server answered: the status line, and for a refusal the body until the server closes the socket.
 */
function upgrade(port: number, path: string, extra: Record<string, string> = {}, keepOpen = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const finish = (open?: net.Socket) => {
      const { status, headers, body } = parseRawAnswer(text);
      if (Number.isNaN(status)) reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
      else resolve({ status, body, headers, socket: open });
    };
    socket.setTimeout(60_000, () => {
      socket.destroy();
      reject(new Error(`no answer to the upgrade of ${path}`));
    });
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      // A 101 leaves the socket open for frames; its head is all there is to read.
      if (/^HTTP\/1\.1 101 /.test(text) && text.includes('\r\n\r\n')) {
        socket.setTimeout(0);
        if (keepOpen) return finish(socket);
        socket.destroy();
        finish();
      }
    });
    socket.on('close', () => (text.startsWith('HTTP/1.1 101 ') ? undefined : finish()));
    socket.on('error', reject);
    const headers = {
      Host: `127.0.0.1:${port}`,
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      ...extra,
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  });
}

for (const engine of engines()) {
  describe(`WebSocket upgrades (${engine.name})`, () => {
    let ctx: TestApp;
    let port: number;
    let gameId: number;

    before(async () => {
      ctx = await createTestApp(engine);
      gameId = (await newGame(client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie))).id;
      port = Number(new URL(await ctx.app.listen({ port: 0, host: '127.0.0.1' })).port);
    });
    after(async () => ctx.close());

    test('the hubs accept upgrades', async () => {
      for (const path of ['/hub/admin', `/hub/user?game=${gameId}`, `/hub/monitor?game=${gameId}`]) {
        assert.equal((await upgrade(port, path)).status, 101, path);
      }
    });

    test('every other route refuses an upgrade before the handshake, with a translated {title, status}', async () => {
      const paths = [
        '/api/config',
        `/api/game/${gameId}`,
        '/api/account/profile',
        '/hub/user/negotiate',
        '/healthz',
        '/',
        '/no/such/page',
        '/api/no/such/route',
      ];
      for (const path of paths) {
        const answer = await upgrade(port, path);
        assert.equal(answer.status, 400, `${path}: ${answer.body}`);
        const body = JSON.parse(answer.body) as { title: string; status: number };
        assert.deepEqual(body, { title: 'This address does not accept WebSocket connections', status: 400 }, path);
      }
      const german = await upgrade(port, '/api/config', { 'Accept-Language': 'de-DE' });
      assert.equal(german.status, 400);
      assert.match(german.body, /nimmt keine WebSocket-Verbindungen an/);
    });

    test('the container proxy takes upgrades to its own checks (here: no proxy configured)', async () => {
      const answer = await upgrade(port, `/api/proxy/${randomUUID()}`);
      assert.equal(answer.status, 400, answer.body);
      assert.doesNotMatch(answer.body, /WebSocket connections/, 'the proxy route itself answered');
    });

    test('one client holds at most so many hub sockets; a closed one frees its place; others are not counted', async () => {
      const player = await asUser(ctx.app, 'User');
      const other = await asUser(ctx.app, 'User');
      const path = `/hub/user?game=${gameId}`;
      const open: net.Socket[] = [];
      try {
        for (let i = 0; i < HUB_SOCKETS_PER_USER; i++) {
          const answer = await upgrade(port, path, { Cookie: player.cookie }, true);
          assert.equal(answer.status, 101, `socket ${i + 1}`);
          open.push(answer.socket!);
        }
        const refused = await upgrade(port, path, { Cookie: player.cookie, 'Accept-Language': 'de-DE' });
        assert.equal(refused.status, 429, refused.body);
        assert.equal(refused.headers['retry-after'], '10');
        assert.deepEqual(JSON.parse(refused.body), {
          title: 'Zu viele Anfragen, bitte versuche es in 10 Sekunden erneut',
          status: 429,
        });
        // The same user on another hub counts too; another user and the address's anonymous clients do not.
        assert.equal((await upgrade(port, `/hub/monitor?game=${gameId}`, { Cookie: player.cookie })).status, 429);
        assert.equal((await upgrade(port, path, { Cookie: other.cookie })).status, 101);
        assert.equal((await upgrade(port, path)).status, 101);

        const closed = new Promise((resolve) => open[0]!.once('close', resolve));
        open.shift()!.destroy();
        await closed;
        // The server hears of the close a moment after the client's side is gone.
        let again = await upgrade(port, path, { Cookie: player.cookie }, true);
        for (let tries = 0; again.status === 429 && tries < 50; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          again = await upgrade(port, path, { Cookie: player.cookie }, true);
        }
        assert.equal(again.status, 101);
        open.push(again.socket!);
      } finally {
        for (const socket of open) socket.destroy();
      }
    });

    test('the server keeps serving after refused upgrades', async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/config`);
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { title: string }).title.length > 0, true);
    });
  });
}
