import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { client, newGame } from '../game/support';

interface Answer {
  status: number;
  /** The body of a refused upgrade (empty for a 101). */
  body: string;
}

/**
 * A WebSocket upgrade sent by hand on a raw socket, so nothing in a client library hides what the
 * server answered: the status line, and for a refusal the body until the server closes the socket.
 */
function upgrade(port: number, path: string, extra: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const finish = () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      if (Number.isNaN(status)) reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
      else resolve({ status, body });
    };
    socket.setTimeout(60_000, () => {
      socket.destroy();
      reject(new Error(`no answer to the upgrade of ${path}`));
    });
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      // A 101 leaves the socket open for frames; its head is all there is to read.
      if (/^HTTP\/1\.1 101 /.test(text) && text.includes('\r\n\r\n')) {
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

    test('the server keeps serving after refused upgrades', async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/config`);
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { title: string }).title.length > 0, true);
    });
  });
}
