import assert from 'node:assert/strict';
import { after, before, describe, test, type Mock } from 'node:test';
import WebSocket from 'ws';
import { MAX_HANDSHAKE_BYTES, readHandshake } from '../../../server/src/lib/signalr';
import { createGame } from '../db/fixtures';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';

/**
 * What an anonymous client can make a hub do before it is admitted: messages that are not a
 * handshake, a database that fails while the socket is admitted, and requests in bulk.
 */
const [pglite] = engines();
const RS = '\u001e';
const HANDSHAKE = '{"protocol":"json","version":1}';
/** Records that are not JSON: reading one costs a failed JSON.parse of `x`. */
const junk = (count: number) => `x${RS}`.repeat(count);
const parsesOf = (parse: Mock<typeof JSON.parse>, text: string) =>
  parse.mock.calls.filter((call) => call.arguments[0] === text).length;

/** Fails instead of waiting for ever (a socket that is never closed, an answer that never comes). */
function within<T>(promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface HubSocket {
  socket: WebSocket;
  /** The server's records so far, pings left out. */
  records: string[];
  closed: Promise<void>;
}

/** A hub socket spoken to by hand, so a test sends exactly the messages it means to. */
async function openHub(url: string): Promise<HubSocket> {
  const socket = new WebSocket(url);
  const records: string[] = [];
  socket.on('message', (data: Buffer) => {
    records.push(
      ...data
        .toString('utf8')
        .split(RS)
        .filter((record) => record && record !== '{"type":6}'),
    );
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, records, closed };
}

/** The HTTP status an upgrade is answered with: 101, or the refusal's. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describe('the handshake reader', () => {
  test('parses the first record of a message only, and nothing of a message too large to be a handshake', (t) => {
    const parse = t.mock.method(JSON, 'parse');
    const followed = Buffer.from(`${HANDSHAKE}${RS}${junk(1000)}`);
    assert.ok(followed.length <= MAX_HANDSHAKE_BYTES);
    assert.deepEqual(readHandshake(followed), { protocol: 'json', version: 1 });
    assert.equal(parse.mock.callCount(), 1);

    assert.equal(readHandshake(Buffer.from(`${HANDSHAKE}${RS}${junk(100_000)}`)), undefined);
    assert.equal(readHandshake(Buffer.from(junk(MAX_HANDSHAKE_BYTES))), undefined);
    assert.equal(parse.mock.callCount(), 1, 'a message larger than a handshake is not parsed');

    assert.equal(readHandshake(Buffer.from(junk(3))), undefined);
    assert.equal(parse.mock.callCount(), 2);
  });
});

describe('hub sockets before their admission', () => {
  let ctx: TestApp;
  let gameId: number;
  let base: string;
  let wsBase: string;

  before(async () => {
    ctx = await createTestApp(pglite!);
    gameId = (await createGame(ctx.app.db)).id;
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    wsBase = base.replace(/^http/, 'ws');
  });
  after(async () => ctx.close());

  test('a handshake is answered though junk records follow it in its message; the junk is not parsed', async (t) => {
    const parse = t.mock.method(JSON, 'parse');
    const hub = await openHub(`${wsBase}/hub/user?game=${gameId}`);
    hub.socket.send(`${HANDSHAKE}${RS}${junk(1000)}`);
    await until(() => hub.records.length > 0, 'handshake answer');
    assert.deepEqual(hub.records, ['{}']);
    assert.equal(parsesOf(parse, 'x'), 0);
    hub.socket.close();
    await within(hub.closed, 'close');
  });

  test('a refused first message is the only one read: what follows it on the socket is ignored', async (t) => {
    const parse = t.mock.method(JSON, 'parse');
    const hub = await openHub(`${wsBase}/hub/user?game=${gameId}`);
    // 64 KiB of records, none JSON; then what would have been a valid handshake.
    hub.socket.send(junk(32_768));
    hub.socket.send(`${HANDSHAKE}${RS}${junk(1000)}`);
    const config = await fetch(`${base}/api/config`);
    assert.equal(config.status, 200, 'the server answers meanwhile');
    // The client's closing reply follows its two messages, so once the socket is closed the server
    // has received both.
    await within(hub.closed, 'close of the refused socket');
    assert.equal(hub.records.length, 1, hub.records.join(' | '));
    assert.ok('error' in (JSON.parse(hub.records[0]!) as object), hub.records[0]);
    assert.equal(parsesOf(parse, 'x'), 0, 'the refused message was not parsed');
    assert.equal(parsesOf(parse, HANDSHAKE), 0, 'the message after it was not read');
  });

  test('a database failure while a socket is admitted refuses it, retry allowed, and the process lives on', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const db = ctx.app.db;
    // The game lookup fails as it does while PostgreSQL restarts.
    ctx.app.db = new Proxy(db, {
      get: (target, key, receiver) =>
        key === 'select'
          ? () => {
              throw new Error('Connection terminated unexpectedly');
            }
          : (Reflect.get(target, key, receiver) as unknown),
    });
    try {
      const negotiate = await fetch(`${base}/hub/user/negotiate?game=${gameId}`, { method: 'POST' });
      assert.equal(negotiate.status, 503);
      const hub = await openHub(`${wsBase}/hub/user?game=${gameId}`);
      hub.socket.send(`${HANDSHAKE}${RS}`);
      await within(hub.closed, 'close of the socket whose admission failed');
      assert.equal(hub.records[0], '{}');
      assert.deepEqual(JSON.parse(hub.records[1]!), {
        type: 7,
        error: 'Service unavailable, please try again later',
        allowReconnect: true,
      });
      // Unhandled rejections are reported once the microtasks have run.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      ctx.app.db = db;
      process.off('unhandledRejection', onRejection);
    }
    assert.deepEqual(rejections, []);

    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    const hub = await openHub(`${wsBase}/hub/user?game=${gameId}`);
    hub.socket.send(`${HANDSHAKE}${RS}`);
    await until(() => hub.records.length > 0, 'handshake answer');
    assert.deepEqual(hub.records, ['{}'], 'admitted again once the database is back');
    hub.socket.close();
    await within(hub.closed, 'close');
  });
});

describe('hub requests in the global request limit', () => {
  let ctx: TestApp;
  let gameId: number;
  let base: string;

  before(async () => {
    ctx = await createTestApp(pglite!, { rateLimit: { disabled: false, global: { max: 3, windowMs: 60_000 } } });
    gameId = (await createGame(ctx.app.db)).id;
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => ctx.close());

  test("negotiations and upgrades count per client; an open socket's messages do not", async () => {
    const negotiate = () => fetch(`${base}/hub/user/negotiate?game=${gameId}`, { method: 'POST' });
    const hubUrl = `${base.replace(/^http/, 'ws')}/hub/user?game=${gameId}`;
    assert.equal((await negotiate()).status, 200);
    const hub = await openHub(hubUrl);
    hub.socket.send(`${HANDSHAKE}${RS}`);
    await until(() => hub.records.length > 0, 'handshake answer');
    assert.deepEqual(hub.records, ['{}']);
    for (let i = 0; i < 10; i++) hub.socket.send(`{"type":6}${RS}`);
    // The third request: the negotiation and the upgrade before it counted, the socket's messages did not.
    assert.equal((await negotiate()).status, 200);

    const refused = await negotiate();
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.deepEqual(await refused.json(), {
      title: `Too many requests, please try again in ${retryAfter} seconds`,
      status: 429,
    });
    assert.equal(await upgradeStatus(hubUrl), 429);
    hub.socket.close();
    await within(hub.closed, 'close');
  });
});
