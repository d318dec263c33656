import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import type { Handlers } from '../../../server/src/contract/handlers';
import { handlers } from '../../../server/src/routes/handlers';
import { createGame } from '../db/fixtures';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { destroyRawSockets, listen, rawSend, stalledPost, within } from './support';

/**
 * How long the server waits for a client: a request body that stops arriving, a connection that
 * goes silent. Neither may cut what is not the client's slowness: a hub WebSocket with nothing to
 * say, or a handler that takes its time over a request that has fully arrived.
 */
const [pglite] = engines();
const RS = '\u001e';

/** The client configuration, answered only after `ms`: a handler slower than the timeouts under test. */
function slowConfig(ms: number): Handlers {
  const original = handlers.infoGetClientConfig;
  if (!original) throw new Error('no handler for infoGetClientConfig');
  const slow: Handlers['infoGetClientConfig'] = async (request, reply) => {
    await sleep(ms);
    return original(request, reply);
  };
  return { ...handlers, infoGetClientConfig: slow };
}

describe('the request timeout', () => {
  let ctx: TestApp;
  let port: number;

  before(async () => {
    ctx = await createTestApp(pglite!, { requestTimeoutMs: 2_000, handlers: slowConfig(3_000) });
    port = await listen(ctx.app);
  });
  after(async () => {
    destroyRawSockets();
    await ctx.close();
  });

  test('a body that stops arriving on an unknown path is answered and its socket closed', async () => {
    const exchange = rawSend(port, stalledPost('/api/nope', 1_000, '{'));
    await within(exchange.closed, 'close of the stalled socket');
    assert.ok([404, 408].includes(exchange.answer().status), exchange.received());
  });

  test('a body that stops arriving on a route is answered 408 in the sender’s language and its socket closed', async () => {
    const head = stalledPost('/api/account/login', 1_000, '{').replace(
      '\r\n\r\n',
      '\r\nAccept-Language: fr-FR\r\n\r\n',
    );
    const exchange = rawSend(port, head);
    await within(exchange.closed, 'close of the stalled socket');
    const answer = exchange.answer();
    assert.equal(answer.status, 408, exchange.received());
    assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.body)));
    assert.deepEqual(JSON.parse(answer.body), { title: "La requête n'est pas arrivée à temps", status: 408 });
    // The server is none the worse for it.
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
  });

  test('headers too large, or a request that is not HTTP, are answered in the same shape', async () => {
    const large = rawSend(port, `GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await within(large.closed, 'close after headers too large');
    assert.equal(large.answer().status, 431, large.received());
    assert.deepEqual(JSON.parse(large.answer().body), { title: 'The request headers are too large', status: 431 });
    const garbage = rawSend(port, 'HELLO\r\n\r\n');
    await within(garbage.closed, 'close after a malformed request');
    assert.deepEqual(JSON.parse(garbage.answer().body), { title: 'Bad request', status: 400 });
    assert.equal(garbage.answer().status, 400);
  });

  test('a request that has arrived may take the handler longer than the request timeout', async () => {
    const response = await within(fetch(`http://127.0.0.1:${port}/api/config`), 'answer', 15_000);
    assert.equal(response.status, 200);
  });
});

describe('the idle timeout', () => {
  let ctx: TestApp;
  let port: number;
  let gameId: number;

  before(async () => {
    ctx = await createTestApp(pglite!, { idleTimeoutMs: 300, handlers: slowConfig(1_500) });
    gameId = (await createGame(ctx.app.db)).id;
    port = await listen(ctx.app);
  });
  after(async () => {
    destroyRawSockets();
    await ctx.close();
  });

  test('a connection silent longer than it, with its request half sent, is closed', async () => {
    // The request timeout is the default 5 minutes here: only the idle timeout can close this one.
    const exchange = rawSend(port, stalledPost('/api/account/login', 1_000, '{'));
    await within(exchange.closed, 'close of the silent socket');
  });

  test('a hub WebSocket with nothing to say outlives it, and closes normally when asked', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/hub/user?game=${gameId}`);
    const records: string[] = [];
    socket.on('message', (data: Buffer) => records.push(...data.toString('utf8').split(RS).filter(Boolean)));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await within(
      new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      }),
      'open hub socket',
    );
    socket.send(`{"protocol":"json","version":1}${RS}`);
    await within(
      (async () => {
        while (records.length === 0) await sleep(10);
      })(),
      'handshake answer',
    );
    assert.deepEqual(records, ['{}']);
    // Five idle timeouts without a byte either way (the hub's pings come every 15 s).
    await sleep(1_500);
    assert.equal(socket.readyState, WebSocket.OPEN, 'the hub socket is still open');
    socket.close(1000);
    assert.equal(await within(closed, 'close'), 1000, 'closed by the handshake, not cut');
  });

  test('a handler slower than it still answers: the wait is the server’s, not the client’s', async () => {
    const response = await within(fetch(`http://127.0.0.1:${port}/api/config`), 'answer', 15_000);
    assert.equal(response.status, 200);
  });
});
