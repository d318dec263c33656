import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { openDatabase } from '../../../server/src/db/client';
import { submissions } from '../../../server/src/db/schema';
import { startServer as startInProcess } from '../../../server/src/main';
import { testEnv } from '../helpers/app';
import { asUser } from '../helpers/users';
import { acceptedPlayer, client, newChallenge, newGame } from '../game/support';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const ADMIN_PASSWORD = 'Shutd0wnAdmin';

interface Server extends ServerProcess {
  dataDir: string;
}

const dataDirs: string[] = [];
/**
 * A data dir left by a server that exited cleanly: later starts copy it and skip creating and
 * migrating the embedded database (most of a start's time).
 */
let template: string | undefined;
after(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The real server process (`server/src/main.ts`, what the Docker image runs) on PGlite and a free port. */
async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-shutdown-'));
  dataDirs.push(dataDir);
  if (template) fs.cpSync(path.join(template, 'db'), path.join(dataDir, 'db'), { recursive: true });
  const server = await startServerProcess({
    DATABASE_URL: '',
    REDIS_URL: '',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'no-client'),
    CONTAINER_PROVIDER: 'None',
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    ...env,
  });
  return { ...server, dataDir };
}

/**
 * A sign-in whose body arrives in two parts: the request is in flight (headers read, handler
 * waiting for the body) until `finish()` sends the rest; resolves with the raw HTTP answer.
 * `start()` returns once the server has read the headers, which it shows by answering the
 * request's `Expect: 100-continue`: a fixed wait was not enough on a loaded machine, where a
 * request the server had not begun to read yet counts as an idle connection, which a closing
 * server drops (the shutdown then finished at once, exit code 0).
 */
function slowSignIn(port: number) {
  const body = JSON.stringify({ userName: 'Admin', password: ADMIN_PASSWORD });
  const socket = net.connect(port, '127.0.0.1');
  const interim = 'HTTP/1.1 100 Continue\r\n\r\n';
  let answer = '';
  let headersRead = () => {};
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString();
    if (answer.startsWith(interim)) headersRead();
  });
  const answered = new Promise<string>((resolve, reject) => {
    socket.once('close', () => resolve(answer.startsWith(interim) ? answer.slice(interim.length) : answer));
    socket.once('error', reject);
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', resolve));
  return {
    async start() {
      await connected;
      const read = new Promise<void>((resolve) => (headersRead = resolve));
      socket.write(
        `POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n` +
          body.slice(0, 10),
      );
      await read;
    },
    finish() {
      socket.write(body.slice(10));
      return answered;
    },
  };
}

/** Resolves once a new TCP connection to the port is refused. */
async function refused(port: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const outcome = await new Promise<'open' | 'refused'>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('open');
      });
      socket.once('error', () => resolve('refused'));
    });
    if (outcome === 'refused') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail('new connections were still accepted after SIGTERM');
}

test('SIGTERM: new connections are refused, the request in flight completes, hubs close, exit code 0', async () => {
  const server = await startServer();
  const base = `http://127.0.0.1:${server.port}`;
  const login = await fetch(`${base}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'Admin', password: ADMIN_PASSWORD }),
  });
  assert.equal(login.status, 200);
  const cookie = login.headers
    .getSetCookie()
    .map((entry) => entry.split(';')[0])
    .join('; ');

  const hub = new WebSocket(`ws://127.0.0.1:${server.port}/hub/admin`, { headers: { cookie } });
  const hubClosed = new Promise<number>((resolve) => hub.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    hub.once('open', () => hub.send('{"protocol":"json","version":1}\u001e'));
    hub.once('message', () => resolve());
    hub.once('error', reject);
  });

  const inFlight = slowSignIn(server.port);
  await inFlight.start();
  // The handler is waiting for the body before the signal arrives.
  await new Promise((resolve) => setTimeout(resolve, 200));

  server.child.kill('SIGTERM');
  await refused(server.port);
  assert.equal(server.child.exitCode, null, 'the process waits for the request in flight');
  const code = await hubClosed;
  assert.ok([1000, 1001, 1005, 1006].includes(code), `hub closed with ${code}`);

  const answer = await inFlight.finish();
  assert.match(answer, /^HTTP\/1\.1 200 /, `the request in flight was answered:\n${answer}`);
  assert.match(answer, /GZCTF_Token=/);
  assert.equal(await server.exited, 0, server.output());
  template = server.dataDir;
});

test('a request that never finishes: SHUTDOWN_TIMEOUT ends the process with exit code 1', async () => {
  const server = await startServer({ SHUTDOWN_TIMEOUT: '1' });
  const stuck = slowSignIn(server.port);
  await stuck.start();
  await new Promise((resolve) => setTimeout(resolve, 200));
  server.child.kill('SIGTERM');
  await refused(server.port);
  assert.equal(await server.exited, 1);
  assert.match(server.output(), /SHUTDOWN_TIMEOUT/);
});

test('a second signal ends the process at once with exit code 1', async () => {
  const server = await startServer({ SHUTDOWN_TIMEOUT: '600' });
  const stuck = slowSignIn(server.port);
  await stuck.start();
  await new Promise((resolve) => setTimeout(resolve, 200));
  server.child.kill('SIGTERM');
  await refused(server.port);
  server.child.kill('SIGINT');
  assert.equal(await server.exited, 1);
  assert.match(server.output(), /second signal/);
});

test('a graceful shutdown judges every queued submission before the database closes', async () => {
  const env = testEnv({ PORT: '0', HOST: '127.0.0.1' });
  dataDirs.push(env.dataDir);
  const server = await startInProcess(env);
  const { app } = server;
  const admin = client(app, (await asUser(app, 'Admin')).cookie);
  const game = await newGame(admin);
  const challenge = await newChallenge(admin, game.id, { flags: ['flag{drained}'] });
  const player = await acceptedPlayer(app, game.id);
  // Acknowledged while the judge is paused: committed as FlagSubmitted, not judged.
  await app.flagChecker.stop();
  const ids: number[] = [];
  for (const flag of ['flag{drained}', 'flag{wrong}', 'flag{drained}', 'flag{wrong2}']) {
    const response = await player.api('POST', `/api/game/${game.id}/challenges/${challenge.id}`, { flag });
    assert.equal(response.statusCode, 200, response.body);
    ids.push(response.json<number>());
  }
  await app.flagChecker.stop();
  // One batch being judged and three waiting behind it when the shutdown begins.
  await app.flagChecker.start(ids.slice(0, 1));
  for (const id of ids.slice(1)) app.flagChecker.enqueue(id);
  await server.shutdown();

  const reopened = await openDatabase({ dataDir: path.join(env.dataDir, 'db') });
  try {
    const rows = await reopened.db.select().from(submissions).where(eq(submissions.gameId, game.id));
    assert.deepEqual(rows.map((row) => row.status).sort(), ['Accepted', 'Accepted', 'WrongAnswer', 'WrongAnswer']);
  } finally {
    await reopened.close();
  }
});
