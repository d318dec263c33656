import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { WebSocket, WebSocketServer } from 'ws';
import type { Db } from '../../../server/src/db/client';
import { loadEnv } from '../../../server/src/env';
import { teamCaptureDir } from '../../../server/src/modules/instances/capture';
import { ContainerProxy, type ProxyOptions, type ProxyTarget } from '../../../server/src/modules/instances/proxy';
import { createMemoryCache } from '../../../server/src/plugins/app/cache';
import { MAX_WEBSOCKET_MESSAGE } from '../../../server/src/plugins/external/websocket';
import { readPcap } from '../../helpers/pcap-reader';

/**
 * The relay of `ContainerProxy` on its own: "containers" are TCP servers on loopback, and a small
 * HTTP server dials them and hands the accepted WebSocket to the proxy, as the proxy route does
 * (no database, no engine). A slow peer is made by corking its socket: what the proxy writes stays
 * in user space, as when the peer's TCP window is full, whatever the kernel's buffer sizes.
 */

const cleanups: Array<() => void | Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const CAPTURE = { challengeId: 7, participationId: 11 };

/** A TCP server on loopback; `onConnection` plays the container. */
async function container(onConnection: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => void server.close());
  return (server.address() as net.AddressInfo).port;
}

interface Relay {
  proxy: ContainerProxy;
  dataDir: string;
  /** Opens a proxied WebSocket to the container listening on `port` (a container row of its own unless given). */
  open(port: number, options?: { capture?: boolean; rowId?: string }): Promise<WebSocket>;
  /** The server side of each accepted WebSocket (its TCP socket) and the container socket, in order. */
  accepted: Array<{ socket: net.Socket; tcp: net.Socket }>;
}

async function relay(
  options: ProxyOptions = {},
  settings: Record<string, string> = {},
  onAccept?: (sockets: { socket: net.Socket; tcp: net.Socket }) => void,
): Promise<Relay> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-relay-'));
  const env = loadEnv({ PORT_MAPPING: 'PlatformProxy', DATA_DIR: dataDir, ...settings });
  const proxy = new ContainerProxy(
    { db: undefined as unknown as Db, env, cache: createMemoryCache(), log: { debug() {}, warn() {} } },
    options,
  );
  const targets = new Map<string, ProxyTarget>();
  const accepted: Relay['accepted'] = [];
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WEBSOCKET_MESSAGE, perMessageDeflate: false });
  const server = http.createServer();
  server.on('upgrade', (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const target = targets.get(request.url ?? '');
    if (!target) return socket.destroy();
    // Dialed before the upgrade is accepted, as the proxy route does.
    void proxy.dial(target).then((dialed) =>
      wss.handleUpgrade(request, socket, head, (ws) => {
        accepted.push({ socket, tcp: dialed.tcp });
        onAccept?.({ socket, tcp: dialed.tcp });
        proxy.bridge(ws, dialed, target, { host: '127.0.0.1', port: socket.remotePort ?? 0 });
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `ws://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  cleanups.push(() => {
    proxy.stop();
    server.closeAllConnections();
    server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    proxy,
    dataDir,
    accepted,
    open: (port, { capture = false, rowId = randomUUID() } = {}) => {
      targets.set(`/${rowId}`, {
        rowId,
        noInstance: false,
        candidates: [{ host: '127.0.0.1', port }],
        capture: capture
          ? {
              ...CAPTURE,
              meta: { challenge: 'Relay', challengeId: 7, team: 'T', teamId: 3, containerId: rowId, flag: null },
            }
          : null,
      });
      const ws = new WebSocket(`${base}/${rowId}`);
      return new Promise((resolve, reject) => {
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    },
  };
}

/** Everything a WebSocket receives until it closes, and the close code. */
function receiveAll(ws: WebSocket): Promise<{ data: Buffer; code: number }> {
  const chunks: Buffer[] = [];
  ws.on('message', (data: Buffer) => chunks.push(data));
  return new Promise((resolve) => ws.once('close', (code) => resolve({ data: Buffer.concat(chunks), code })));
}

/** Everything a container socket receives until the proxy ends it. */
function receiveUntilEnd(socket: net.Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks))));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`${what} did not happen in time`);
    await sleep(20);
  }
}

/** Waits until `read` gives the same value a few times in a row (the relay stopped moving), and returns it. */
async function steady(read: () => number): Promise<number> {
  let last = -1;
  let same = 0;
  for (;;) {
    const value = read();
    same = value === last ? same + 1 : 0;
    last = value;
    if (same >= 5) return value;
    await sleep(100);
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('the proxy relay, ending', () => {
  test('a container that writes its last bytes and exits: a slow client still receives all of them', async () => {
    // The tail fits in what the session holds for the client, so the container's end is read at once.
    const payload = Buffer.concat([randomBytes(400 * 1024), Buffer.from('flag{the-tail}')]);
    const port = await container((socket) => socket.end(payload));
    let slow: net.Socket | undefined;
    const { proxy, open } = await relay({}, {}, ({ socket }) => {
      slow = socket;
      socket.cork();
    });
    const ws = await open(port);
    const received = receiveAll(ws);
    await eventually(() => proxy.stats().sessions === 0, 'the session ending with the container');
    // Longer than the second the proxy used to allow before cutting the client off.
    await sleep(1_500);
    slow!.uncork();
    const { data, code } = await received;
    assert.equal(code, 1000);
    assert.equal(data.length, payload.length);
    assert.ok(data.equals(payload), 'every byte arrived, the flag last');
  });

  test('a client that sends its last bytes and closes: a slow container still receives all of them', async () => {
    let got: Promise<Buffer> | undefined;
    const port = await container((socket) => (got = receiveUntilEnd(socket)));
    const { open } = await relay({}, {}, ({ tcp }) => tcp.cork());
    const ws = await open(port);
    const answer = randomBytes(10 * 1024);
    ws.send(answer.subarray(0, 4096));
    ws.send(answer.subarray(4096));
    ws.close();
    assert.ok((await got!).equals(answer), 'the container got the whole answer before the end');
  });

  // Without the bound the copying starves this process's event loop: the timeout makes that a failure, not a hang.
  test(
    'after the client has gone, an endless stream is read only so far, not for the whole grace period',
    { timeout: 30_000 },
    async () => {
      let sent = 0;
      let streamer: net.Socket | undefined;
      // Half-open allowed: the proxy's FIN does not stop this container (as a C service writing in a
      // loop does not notice it), only a reset would.
      const server = net.createServer({ allowHalfOpen: true }, (socket) => {
        socket.on('error', () => undefined);
        streamer = socket;
        const chunk = randomBytes(64 * 1024);
        // Writes as fast as the proxy reads, for as long as the socket is open.
        const pump = () => {
          while (!socket.destroyed && socket.write(chunk)) sent += chunk.length;
          if (!socket.destroyed) sent += chunk.length;
        };
        socket.on('drain', pump);
        pump();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as net.AddressInfo).port;
      const { open } = await relay({ closeGraceMs: 60_000 });
      const ws = await open(port);
      await new Promise((resolve) => ws.once('message', resolve));
      ws.close();
      await new Promise((resolve) => ws.once('close', resolve));
      const atClose = sent;
      await sleep(1_000);
      // The kernel's buffers on both sides (a few MiB at most) and the 1 MiB read after the close: an
      // unbounded drain would have read hundreds of MiB in that second.
      assert.ok(sent - atClose < 32 * 1024 * 1024, `${sent - atClose} bytes read after the client closed`);
      streamer?.destroy();
      server.close();
    },
  );

  test('a session whose sockets do not close within the grace period is cut off, and its memory given back', async () => {
    const port = await container((socket) => socket.end(randomBytes(64 * 1024)));
    const { proxy, open } = await relay({ closeGraceMs: 200 }, {}, ({ socket }) => socket.cork());
    const ws = await open(port);
    const code = new Promise<number>((resolve) => ws.once('close', resolve));
    // The client never gets the close frame (its socket is corked on the server): only the cut-off ends it.
    assert.equal(await code, 1006);
    await eventually(() => proxy.stats().memory === 0, 'the session giving its memory back');
  });

  test('a container keeps at most its connection limit of ended sessions waiting for slow clients', async () => {
    const port = await container((socket) => socket.end(randomBytes(64 * 1024)));
    const { proxy, open } = await relay({ maxConnections: 2, closeGraceMs: 60_000 }, {}, ({ socket }) => socket.cork());
    const rowId = randomUUID();
    const clients: WebSocket[] = [];
    const codes: Array<Promise<number>> = [];
    for (let n = 0; n < 5; n++) {
      const ws = await open(port, { rowId });
      clients.push(ws);
      codes.push(new Promise((resolve) => ws.once('close', resolve)));
      await eventually(() => proxy.stats().sessions === 0, 'the session ending with the container');
    }
    // The oldest are cut as newer ones end: three of five, the last two still wait for their clients
    // (past the second after which every ended session used to be cut).
    assert.deepEqual(await Promise.all(codes.slice(0, 3)), [1006, 1006, 1006]);
    await sleep(1_500);
    assert.deepEqual(
      clients.map((ws) => ws.readyState),
      [WebSocket.CLOSED, WebSocket.CLOSED, WebSocket.CLOSED, WebSocket.OPEN, WebSocket.OPEN],
    );
  });
});

describe('the proxy relay, heartbeat', () => {
  test('a client not read because the container does not take its bytes is not cut off as unresponsive', async () => {
    let reader: net.Socket | undefined;
    const port = await container((socket) => {
      reader = socket;
      socket.pause();
    });
    const { proxy, open } = await relay({ heartbeatMs: 100 });
    const ws = await open(port);
    const payload = randomBytes(8 * 1024 * 1024);
    for (let at = 0; at < payload.length; at += 256 * 1024) ws.send(payload.subarray(at, at + 256 * 1024));
    // The proxy holds a write's worth for the container: it stopped reading the client, pongs included.
    await eventually(() => (proxy.stats().buffered[0]?.toContainer ?? 0) >= 16 * 1024, 'back-pressure');
    await sleep(1_000);
    assert.equal(proxy.stats().sessions, 1, 'ten heartbeats later the session is still there');
    const got = receiveUntilEnd(reader!);
    reader!.resume();
    await eventually(() => reader!.bytesRead >= payload.length, 'the container reading everything');
    ws.close();
    assert.ok((await got).equals(payload));
  });
});

describe('the proxy relay, memory', () => {
  test('sessions to clients that do not read hold about the process-wide budget, not their own bound each', async () => {
    // Containers that stream without end.
    const port = await container((socket) => {
      const chunk = randomBytes(64 * 1024);
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk));
      };
      socket.on('drain', pump);
      pump();
    });
    const budget = 256 * 1024;
    const { proxy, open, accepted } = await relay({ memoryBytes: budget, heartbeatMs: 60_000 }, {}, ({ socket }) =>
      socket.cork(),
    );
    const sessions = 16;
    const clients: WebSocket[] = [];
    for (let n = 0; n < sessions; n++) clients.push(await open(port));
    const toClient = () => sum(proxy.stats().buffered.map((held) => held.toClient));
    const held = await steady(toClient);
    // Each session used to hold over 1 MiB for its client (16+ MiB here). Now: the budget, one large
    // read that crossed it, and a small share per session.
    assert.ok(held < 6 * 1024 * 1024, `the sessions hold ${held} bytes for their clients`);
    assert.ok(proxy.stats().memory < 6 * 1024 * 1024, `the budget counts ${proxy.stats().memory} bytes`);
    // Past the budget every session still moves: one client that reads gets its stream.
    const reader = clients[sessions - 1]!;
    let got = 0;
    reader.on('message', (data: Buffer) => (got += data.length));
    accepted[sessions - 1]!.socket.uncork();
    await eventually(() => got >= 4 * 1024 * 1024, 'the reading client receiving its stream');
    for (const client of clients) client.terminate();
    await eventually(() => proxy.stats().memory === 0, 'every session giving its memory back');
  });
});

describe('the proxy relay, capture', () => {
  const echo = () =>
    container((socket) => {
      socket.pipe(socket);
    });

  async function captureFiles(dataDir: string): Promise<string[]> {
    const directory = teamCaptureDir(dataDir, CAPTURE.challengeId, CAPTURE.participationId);
    const names = await fs.promises.readdir(directory).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith('.pcap')).map((name) => path.join(directory, name));
  }

  async function echoed(ws: WebSocket, payload: Buffer): Promise<void> {
    let got = 0;
    const done = new Promise<void>((resolve) =>
      ws.on('message', (data: Buffer) => {
        got += data.length;
        if (got >= payload.length) resolve();
      }),
    );
    for (let at = 0; at < payload.length; at += 64 * 1024) ws.send(payload.subarray(at, at + 64 * 1024));
    await done;
    ws.close();
    await new Promise((resolve) => ws.once('close', resolve));
  }

  test("a connection's capture file stops at CAPTURE_MAX_FILE_MB, the rest counted in its last note", async () => {
    const { proxy, open, dataDir } = await relay({}, { CAPTURE_MAX_FILE_MB: '1', CAPTURE_MIN_FREE_MB: '0' });
    const port = await echo();
    const payload = randomBytes(3 * 1024 * 1024);
    await echoed(await open(port, { capture: true }), payload);
    await eventually(async () => (await captureFiles(dataDir)).length === 1, 'the capture file');
    const [file] = await captureFiles(dataDir);
    const bytes = fs.readFileSync(file!);
    assert.ok(bytes.length <= 1024 * 1024 + 1024, `the file has ${bytes.length} bytes`);
    const packets = readPcap(bytes);
    const note = JSON.parse(packets.at(-1)!.payload.toString('utf8')) as { dropped: { bytes: number } };
    const kept = sum(packets.slice(1, -1).map((packet) => packet.payload.length));
    // Both directions were recorded until the file was full; nothing after.
    assert.equal(kept + note.dropped.bytes, 2 * payload.length);
    await eventually(() => proxy.stats().memory === 0, 'the recorder giving its memory back');
  });

  test('no capture is started while the data volume has less free space than CAPTURE_MIN_FREE_MB', async () => {
    const port = await echo();
    // More than any test machine has free.
    const full = await relay({}, { CAPTURE_MIN_FREE_MB: '1048576' });
    await echoed(await full.open(port, { capture: true }), Buffer.from('relayed all the same'));
    const roomy = await relay({}, { CAPTURE_MIN_FREE_MB: '0' });
    await echoed(await roomy.open(port, { capture: true }), Buffer.from('recorded'));
    await eventually(async () => (await captureFiles(roomy.dataDir)).length === 1, 'the recorded connection');
    assert.deepEqual(await captureFiles(full.dataDir), []);
    assert.deepEqual(fs.readdirSync(full.dataDir), [], 'not even a folder was made');
  });
});
