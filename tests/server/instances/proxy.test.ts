import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { containers } from '../../../server/src/db/schema';
import { MISSES_PER_MINUTE } from '../../../server/src/modules/instances/proxy';
import { dockerUnavailable, ensureTestImage, removeTestContainers } from '../../helpers/docker';
import { readPcap } from '../../helpers/pcap-reader';
import { openRawWebSocket, type RawWebSocket } from '../../helpers/raw-websocket';
import { parseTar } from '../edit/tar-reader';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, assertOk, client, newGame, type Client, type Player } from '../game/support';
import { containerChallenge, containerEnv, eventually, platformId, TEST_PORTS, type ContainerInfo } from './support';

/** Opens a proxy WebSocket; resolves once open, rejects with the refusal's status code. */
function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_request, response) => {
      reject(Object.assign(new Error(`refused with ${response.statusCode}`), { status: response.statusCode }));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** Sends `payload` and collects what comes back until `length` bytes arrived. */
/** Opens a proxy WebSocket to a container just started, whose service may not listen yet (418 until it does). */
async function openWhenListening(url: string): Promise<WebSocket> {
  let ws: WebSocket | undefined;
  await eventually(async () => {
    try {
      ws = await open(url);
      return true;
    } catch (error) {
      if ((error as { status?: number }).status === 418) return false;
      throw error;
    }
  });
  return ws!;
}

function echo(ws: WebSocket, payload: Buffer, options: { binary?: boolean } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onMessage = (data: Buffer) => {
      chunks.push(data);
      received += data.length;
      if (received >= payload.length) {
        ws.off('message', onMessage);
        resolve(Buffer.concat(chunks));
      }
    };
    ws.on('message', onMessage);
    ws.once('close', () => reject(new Error('closed before the echo came back')));
    ws.send(payload, { binary: options.binary ?? true });
  });
}

const closed = (ws: WebSocket) =>
  new Promise<number>((resolve) => {
    if (ws.readyState === ws.CLOSED) resolve(-1);
    else ws.once('close', (code) => resolve(code));
  });

for (const [index, engine] of engines().entries()) {
  describe(`the platform proxy (${engine.name})`, async () => {
    const unavailable = await dockerUnavailable();
    const it = (name: string, body: () => Promise<void>) => test(name, { skip: unavailable }, body);
    let ctx: TestApp;
    let admin: Client;
    let image: string;
    let base: string;
    let gameId: number;
    let echoChallenge: number;
    let player: Player;
    let entry: string;

    before(async () => {
      if (unavailable) return;
      image = await ensureTestImage();
      ctx = await createTestApp(engine, {
        env: testEnv(containerEnv({ PORT_MAPPING: 'PlatformProxy', TRAFFIC_CAPTURE: 'true' })),
        instances: { proxy: { heartbeatMs: 1000, checkMs: 300 } },
        // The stalled upgrade below is dropped after this instead of the default 10 s.
        headersTimeoutMs: 2_000,
      });
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const address = ctx.app.server.address();
      base = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
      gameId = (await newGame(admin, { containerCountLimit: 0 })).id;
      echoChallenge = (await containerChallenge(admin, gameId, image, { port: TEST_PORTS.echo, capture: true })).id;
      player = await acceptedPlayer(ctx.app, gameId);
      entry = (await startContainer(player, echoChallenge)).entry;
    });
    after(async () => {
      if (unavailable) return;
      const id = await platformId(ctx.app);
      await ctx.close();
      await removeTestContainers(id);
    });

    const startContainer = async (who: Player, challengeId: number) =>
      assertOk(
        'gameCreateContainer',
        await who.api('POST', `/api/game/${gameId}/container/${challengeId}`),
      ) as ContainerInfo;
    const http = () => base.replace('ws:', 'http:');

    it('the entry is the container id; plain requests get 204 for it and 404 for an unknown id, and dial nothing', async () => {
      assert.match(entry, /^[0-9a-f-]{36}$/);
      const dials = ctx.app.containerProxy.stats().dials;
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST']) {
        assert.equal((await fetch(`${http()}/api/proxy/${entry}`, { method })).status, 204, method);
        assert.equal((await fetch(`${http()}/api/proxy/${randomUUID()}`, { method })).status, 404, method);
      }
      // A player's container is not reachable as a test container, nor the other way round.
      assert.equal((await fetch(`${http()}/api/proxy/noinst/${entry}`)).status, 404);
      assert.equal(ctx.app.containerProxy.stats().dials, dials);
    });

    it('a client asking for too many unknown ids must wait; its known ones and other clients are unaffected', async () => {
      const ask = (id: string, remoteAddress: string) =>
        ctx.app.inject({ method: 'GET', url: `/api/proxy/${id}`, remoteAddress });
      for (let i = 0; i < MISSES_PER_MINUTE; i++)
        assert.equal((await ask(randomUUID(), '198.51.100.77')).statusCode, 404);
      const refused = await ask(randomUUID(), '198.51.100.77');
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.headers['retry-after'], '60');
      assert.deepEqual(Object.keys(refused.json()).sort(), ['status', 'title']);
      assert.equal((await ask(entry, '198.51.100.77')).statusCode, 204);
      assert.equal((await ask(randomUUID(), '198.51.100.78')).statusCode, 404);
    });

    it('a WebSocket reaches the container and back, text and binary alike', async () => {
      const ws = await open(`${base}/api/proxy/${entry}`);
      const payload = randomBytes(100_000);
      assert.deepEqual(await echo(ws, payload), payload);
      assert.equal((await echo(ws, Buffer.from('hello text'), { binary: false })).toString(), 'hello text');
      ws.close();
      await closed(ws);
    });

    it('nothing in the request changes the target: only the stored container is dialed', async () => {
      const ws = await open(`${base}/api/proxy/${entry}?host=127.0.0.1&port=22&ip=10.0.0.1`, {
        Host: 'evil.example:22',
        'X-Forwarded-For': '10.0.0.1',
        'X-Forwarded-Host': '127.0.0.1:22',
        'X-Real-IP': '127.0.0.1',
      });
      assert.equal((await echo(ws, Buffer.from('still the echo'))).toString(), 'still the echo');
      ws.close();
      await closed(ws);
      await assert.rejects(open(`${base}/api/proxy/${entry}/../${randomUUID()}`), { status: 404 });
    });

    it('many concurrent sessions never exchange bytes', async () => {
      const other = await acceptedPlayer(ctx.app, gameId);
      const second = (await startContainer(other, echoChallenge)).entry;
      const sessions = await Promise.all(
        Array.from({ length: 24 }, (_, n) => open(`${base}/api/proxy/${n % 2 ? entry : second}`)),
      );
      const payloads = sessions.map(() => randomBytes(64 * 1024));
      const answers = await Promise.all(sessions.map((ws, n) => echo(ws, payloads[n]!)));
      answers.forEach((answer, n) => assert.ok(answer.equals(payloads[n]!), `session ${n} got only its own bytes`));
      for (const ws of sessions) ws.close();
      await Promise.all(sessions.map(closed));
    });

    it('the 33rd connection to one container is refused; a freed slot is usable again', async () => {
      const sessions = await Promise.all(Array.from({ length: 32 }, () => open(`${base}/api/proxy/${entry}`)));
      await assert.rejects(open(`${base}/api/proxy/${entry}`), { status: 400 });
      sessions[0]!.close();
      await closed(sessions[0]!);
      await eventually(async () => ctx.app.containerProxy.stats(entry).sessions === 31);
      const again = await open(`${base}/api/proxy/${entry}`);
      for (const ws of [...sessions.slice(1), again]) ws.close();
      await Promise.all([...sessions, again].map(closed));
    });

    it('418 when the container does not answer on its port', async () => {
      const silent = (await containerChallenge(admin, gameId, image, { port: 7999 })).id;
      const who = await acceptedPlayer(ctx.app, gameId);
      const dead = (await startContainer(who, silent)).entry;
      await assert.rejects(open(`${base}/api/proxy/${dead}`), { status: 418 });
      assert.equal(ctx.app.containerProxy.stats(dead).sessions, 0);
    });

    it('an oversized frame closes that session alone', async () => {
      const [big, bystander] = [await open(`${base}/api/proxy/${entry}`), await open(`${base}/api/proxy/${entry}`)];
      const code = closed(big);
      big.send(randomBytes(2 * 1024 * 1024));
      assert.equal(await code, 1009);
      assert.equal((await echo(bystander, Buffer.from('unaffected'))).toString(), 'unaffected');
      bystander.close();
      await closed(bystander);
    });

    it('a flood towards a container that does not read stays bounded in the server', async () => {
      const sink = (await containerChallenge(admin, gameId, image, { port: TEST_PORTS.sink })).id;
      const who = await acceptedPlayer(ctx.app, gameId);
      const id = (await startContainer(who, sink)).entry;
      const ws = await openWhenListening(`${base}/api/proxy/${id}`);
      const chunk = randomBytes(512 * 1024);
      for (let sent = 0; sent < 48; sent++) ws.send(chunk);
      // The client keeps what the server refused to take; the server holds at most about a frame.
      await eventually(async () => ws.bufferedAmount > 8 * 1024 * 1024);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [buffered] = ctx.app.containerProxy.stats(id).buffered;
      assert.ok(buffered, 'the session is alive');
      assert.ok(buffered.toContainer < 2 * 1024 * 1024, `server buffers ${buffered.toContainer} bytes`);
      ws.terminate();
    });

    it('a container stream larger than every buffer arrives whole, and a slow reader is not buffered for', async () => {
      const source = (await containerChallenge(admin, gameId, image, { port: TEST_PORTS.source })).id;
      const who = await acceptedPlayer(ctx.app, gameId);
      const id = (await startContainer(who, source)).entry;
      // The client stops reading at its first bytes: the container keeps sending, the server holds little.
      let first: () => void = () => {};
      const paused = new Promise<void>((resolve) => (first = resolve));
      let stopped = false;
      let raw!: RawWebSocket;
      // The container was just started: until its service listens the upgrade is refused with 418.
      await eventually(async () => {
        raw = openRawWebSocket(`${base}/api/proxy/${id}`, () => {
          if (stopped) return;
          stopped = true;
          raw.socket.pause();
          first();
        });
        const refused = await Promise.race([
          paused.then(() => undefined),
          raw.closed.then(
            () => undefined,
            (e) => e,
          ),
        ]);
        if (refused instanceof Error && refused.message.startsWith('HTTP/1.1 418 ')) return false;
        if (refused) throw refused;
        return true;
      });
      // Shorter than a heartbeat (this app pings every second), or the client counts as gone.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const [held] = ctx.app.containerProxy.stats(id).buffered;
      assert.ok(held, 'the session is alive');
      assert.ok(held.toClient <= 3 * 1024 * 1024, `server holds ${held.toClient} bytes for the client`);
      raw.socket.resume();
      assert.deepEqual(await raw.closed, { bytes: 64 * 1024 * 1024, code: 1000 });
    });

    it('a half-open client (answering no ping) is cut off', async () => {
      const ws = await open(`${base}/api/proxy/${entry}`);
      const before = ctx.app.containerProxy.stats(entry).sessions;
      // The client stops reading: pings go unanswered, as with a peer that vanished.
      (ws as unknown as { _socket: net.Socket })._socket.pause();
      await eventually(async () => ctx.app.containerProxy.stats(entry).sessions === before - 1);
      ws.terminate();
    });

    if (index === 0) {
      it('an upgrade whose headers never finish is dropped', async () => {
        const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
        socket.resume();
        socket.write(`GET /api/proxy/${entry} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n`);
        const started = Date.now();
        await new Promise((resolve) => socket.once('close', resolve));
        // Dropped by the headers timeout (2 s here, checked every 2 s), not by the test's own timeout.
        assert.ok(Date.now() - started < 10_000);
      });
    }

    it('destroying an instance closes its sessions; so does its row going elsewhere', async () => {
      const who = await acceptedPlayer(ctx.app, gameId);
      const id = (await startContainer(who, echoChallenge)).entry;
      const ws = await openWhenListening(`${base}/api/proxy/${id}`);
      const code = closed(ws);
      const [row] = await ctx.app.db.select().from(containers).where(eq(containers.id, id));
      const response = await admin('DELETE', `/api/admin/instances/${row!.id}`);
      assert.equal(response.statusCode, 200, response.body);
      // Closed at once, whichever side noticed first (the engine's kill or the removal).
      assert.ok([1000, 1001, 1005, 1006].includes(await code));
      assert.equal((await fetch(`${http()}/api/proxy/${id}`)).status, 404);

      // Another platform instance destroying it is noticed by the periodic check.
      const again = await acceptedPlayer(ctx.app, gameId);
      const next = (await startContainer(again, echoChallenge)).entry;
      const live = await openWhenListening(`${base}/api/proxy/${next}`);
      const liveCode = closed(live);
      await ctx.app.db.delete(containers).where(eq(containers.id, next));
      assert.equal(await liveCode, 1001);
    });

    it('a row gone while no session was open (its team deleted, say) is never dialed from the cached target', async () => {
      const who = await acceptedPlayer(ctx.app, gameId);
      const id = (await startContainer(who, echoChallenge)).entry;
      const first = await openWhenListening(`${base}/api/proxy/${id}`);
      first.close();
      await closed(first);
      const dials = ctx.app.containerProxy.stats().dials;
      // The container still runs (nothing told the engine); only the row went, as in a cascade.
      await ctx.app.db.delete(containers).where(eq(containers.id, id));
      await assert.rejects(open(`${base}/api/proxy/${id}`), { status: 404 });
      assert.equal(ctx.app.containerProxy.stats().dials, dials);
      assert.equal((await fetch(`${http()}/api/proxy/${id}`)).status, 404);
    });

    it('test containers are reached through /api/proxy/noinst/{id}', async () => {
      const url = `/api/edit/games/${gameId}/challenges/${echoChallenge}/container`;
      const info = assertOk('editCreateTestContainer', await admin('POST', url)) as ContainerInfo;
      assert.equal((await fetch(`${http()}/api/proxy/${info.entry}`)).status, 404);
      const ws = await open(`${base}/api/proxy/noinst/${info.entry}`);
      assert.equal((await echo(ws, Buffer.from('test container'))).toString(), 'test container');
      ws.close();
      await closed(ws);
      assert.equal((await admin('DELETE', url)).statusCode, 200);
    });

    it('each proxied connection of a recorded challenge is a readable pcap; the team archive holds them all', async () => {
      const who = await acceptedPlayer(ctx.app, gameId);
      const id = (await startContainer(who, echoChallenge)).entry;
      const messages = ['first connection', 'second connection'];
      for (const message of messages) {
        const ws = await openWhenListening(`${base}/api/proxy/${id}`);
        await echo(ws, Buffer.from(message));
        ws.close();
        await closed(ws);
      }
      const monitor = admin;
      const teamsOf = async () =>
        assertOk('gameGetChallengeTraffic', await monitor('GET', `/api/game/captures/${echoChallenge}`)) as Array<{
          id: number;
          teamId: number;
        }>;
      const filesOf = async (participation: number) =>
        assertOk(
          'gameGetTeamTrafficFiles',
          await monitor('GET', `/api/game/captures/${echoChallenge}/${participation}`),
        ) as Array<{ fileName: string; size: number }>;
      // Files appear once their connection's recording is closed, just after the socket is.
      let team: { id: number } | undefined;
      await eventually(async () => {
        team = (await teamsOf()).find((entry) => entry.teamId === who.team.id);
        return team !== undefined && (await filesOf(team.id)).length === messages.length;
      });
      const files = await filesOf(team!.id);
      for (const file of files) {
        const download = await monitor('GET', `/api/game/captures/${echoChallenge}/${team!.id}/${file.fileName}`);
        assert.equal(download.statusCode, 200);
        const packets = readPcap(download.rawPayload);
        const meta = JSON.parse(packets[0]!.payload.toString('utf8')) as { teamId: number; containerId: string };
        assert.equal(meta.teamId, who.team.id);
        assert.equal(meta.containerId, id);
        const payloads = packets.slice(1).map((packet) => packet.payload.toString('utf8'));
        const message = messages.find((text) => payloads.includes(text));
        assert.ok(message, 'the payload went out and came back');
        assert.equal(payloads.filter((text) => text === message).length, 2, JSON.stringify(payloads));
      }
      const archive = await monitor('GET', `/api/game/captures/${echoChallenge}/${team!.id}/all`);
      assert.equal(archive.statusCode, 200);
      assert.deepEqual(
        parseTar(archive.rawPayload)
          .map((entry) => entry.name)
          .sort(),
        files.map((file) => file.fileName).sort(),
      );
      const forbidden = await player.api('GET', `/api/game/captures/${echoChallenge}/${team!.id}`);
      assert.equal(forbidden.statusCode, 403);
    });
  });
}
