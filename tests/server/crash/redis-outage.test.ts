import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { Redis } from 'ioredis';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client';
import { createScratchDatabase } from '../helpers/database';
import { startPrivateRedis, type PrivateRedis } from '../helpers/private-services';
import { call, startServerProcess, stopServerProcess, until, type ServerProcess } from '../helpers/server-process';
import { assertJudgedOnce, flood, serverEnv, startGame, unjudged, type PlayingGame } from './support';

/**
 * Redis stopped while the server is under load: submissions and scoreboard reads keep being served
 * (caches and signals fall back to the process), nothing acknowledged is lost, and once Redis is
 * back on the same port the server uses it again. The Redis is the test's own (the machine's shared
 * one serves other tests); PostgreSQL is DATABASE_URL's, as in the other crash tests.
 */
const databaseUrl = process.env.DATABASE_URL;
const TEAMS = 8;
const HANG_MS = 30_000;

if (databaseUrl)
  describe('Redis stopped and started again under load', () => {
    let scratch: { url: string; drop(): Promise<void> };
    let redis: PrivateRedis;
    let database: DatabaseHandle;
    let dataDir: string;
    let server: ServerProcess;
    let game: PlayingGame;
    let observer: Redis;
    const prefix = `crash-${randomBytes(4).toString('hex')}:`;
    const base = () => server.base;

    before(async () => {
      scratch = await createScratchDatabase(databaseUrl);
      redis = await startPrivateRedis();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-crash-redis-'));
      server = await startServerProcess(
        serverEnv(dataDir, { DATABASE_URL: scratch.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix }),
      );
      database = await openDatabase({ databaseUrl: scratch.url });
      game = await startGame(database, base, TEAMS);
      // The test's own look into Redis; it reconnects by itself when Redis comes back.
      observer = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      observer.on('error', () => undefined);
    });

    let hub: HubConnection | undefined;

    after(async () => {
      await hub?.stop().catch(() => undefined);
      await stopServerProcess(server);
      observer?.disconnect();
      await redis?.stop();
      await database?.close();
      await scratch?.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const keys = async () => (await observer.keys(`${prefix}*`)).length;
    /**
     * The server's signals subscriber listening on its channel again. (The hubs subscribe to a
     * game's channel only while a client of theirs is connected, and this test connects none.)
     */
    const subscribed = async () => {
      // The server's prefix continues with its database's installation id: find its channel by name.
      const channels = (await observer.pubsub('CHANNELS', `${prefix}*`)) as string[];
      const signals = channels.find((name) => name.endsWith(':signals'));
      if (!signals) return false;
      const counts = (await observer.pubsub('NUMSUB', signals)) as Array<string | number>;
      return Number(counts[1]) > 0;
    };

    test('the server keeps serving and judging without it, and uses it again once it is back', async (t) => {
      const challenge = await game.newChallenge('flag{redis}');
      // The server subscribes once it is up, which on a busy machine may come just after it answers.
      await until('the server to subscribe', async () => ((await subscribed()) ? true : undefined));
      // The last team solves only while Redis is down: the board must show it all the same.
      const late = game.players.at(-1)!;
      const load = flood(base, game, challenge, 'flag{redis}', {
        boards: true,
        timeoutMs: HANG_MS,
        players: game.players.slice(0, -1),
      });
      t.after(() => load.stop());
      await until('load under way', async () => (load.acknowledged.length >= 2 * TEAMS ? true : undefined), 60_000);
      assert.ok((await keys()) > 0, 'the server keeps its caches in Redis');

      await redis.stop();
      const acked = load.acknowledged.length;
      const boards = load.boards;
      await until(
        'submissions and scoreboard reads served without Redis',
        async () => (load.acknowledged.length >= acked + 3 * TEAMS && load.boards >= boards + TEAMS ? true : undefined),
        60_000,
      );
      const solved = await call(base(), late.cookie, 'POST', `/api/game/${game.gameId}/challenges/${challenge.id}`, {
        flag: 'flag{redis}',
      });
      assert.equal(solved.status, 200, solved.text);
      load.acknowledged.push(solved.json<number>());
      // A player opening the game now: the hub answers without Redis (a group's subscription waits
      // for it), and once it is back the player hears notices posted on any instance.
      hub = new HubConnectionBuilder()
        .withUrl(`${base()}/hub/user?game=${game.gameId}`, { transport: HttpTransportType.WebSockets })
        .configureLogging(LogLevel.None)
        .build();
      const notices: Array<{ values: string[] }> = [];
      hub.on('ReceivedGameNotice', (notice: { values: string[] }) => notices.push(notice));
      await hub.start();
      await until(
        'the scoreboard to show the solve made while Redis is down',
        async () => {
          const board = await call(base(), undefined, 'GET', `/api/game/${game.gameId}/scoreboard`);
          const items =
            board.status === 200 ? board.json<{ items: Array<{ id: number; solvedCount: number }> }>().items : [];
          return items.some((item) => item.id === late.teamId && item.solvedCount === 1) ? true : undefined;
        },
        60_000,
      );
      assert.deepEqual(
        load.refusals.map((refusal) => `${refusal.status} ${refusal.text}`),
        [],
        'nothing refused while Redis is down',
      );

      await redis.start();
      await until('the server to subscribe again', async () =>
        (await subscribed().catch(() => false)) ? true : undefined,
      );
      // The group's channel, asked for while Redis was down, is subscribed now; a notice reaches the
      // player through it (the server's own messages go through Redis too).
      await until('the hub to subscribe to the game', async () => {
        const channels = (await observer.pubsub('CHANNELS', `${prefix}*hubs:user:${game.gameId}`)) as string[];
        return channels.length === 1 ? true : undefined;
      });
      const posted = await call(base(), game.adminCookie, 'POST', `/api/edit/games/${game.gameId}/notices`, {
        content: 'Redis is back',
      });
      assert.equal(posted.status, 200, posted.text);
      await until('the notice to reach the player', async () =>
        notices.some((notice) => notice.values.includes('Redis is back')) ? true : undefined,
      );
      // A solve regenerates the board, which the server stores in the shared cache again.
      await until(
        'the server to store its caches in Redis again',
        async () => ((await keys().catch(() => 0)) > 0 ? true : undefined),
        60_000,
      );
      await load.stop();

      assert.equal(load.hangs, 0, 'no request hung');
      assert.deepEqual(
        load.refusals.map((refusal) => `${refusal.status} ${refusal.text}`),
        [],
        'nothing refused',
      );
      assert.equal(server.child.exitCode, null, `the server kept running:\n${server.output()}`);
      assert.equal((await call(base(), undefined, 'GET', '/readyz')).status, 200);
      await until(
        'every acknowledged submission judged',
        async () => ((await unjudged(database, challenge.id)) === 0 ? true : undefined),
        60_000,
      );
      await assertJudgedOnce(database, game.gameId, challenge, load.acknowledged);
    });
  });
