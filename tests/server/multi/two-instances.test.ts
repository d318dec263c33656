import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { and, eq, inArray } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client';
import { gameEvents, gameNotices, solves, submissions } from '../../../server/src/db/schema';
import { createSessionCookie, createTeam, createUser } from '../db/fixtures';
import { createScratchDatabase } from '../helpers/database';
import {
  call,
  sleep,
  startServerProcess as startInstance,
  until,
  type ServerProcess as Instance,
} from '../helpers/server-process';

/**
 * Two real server processes (the production entry, separate ports) on one PostgreSQL database and
 * one Redis behave as one platform: judging, bloods, hub delivery, the scoreboard, and a stop of one
 * while submissions are in flight. Needs both DATABASE_URL and REDIS_URL (CI sets them).
 */
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const TEAMS = 20;

// Without both there is no second instance to talk to (a single process is what every other test runs).
if (databaseUrl && redisUrl)
  describe('two server instances on one PostgreSQL and one Redis', () => {
    let scratch: { url: string; drop(): Promise<void> };
    let database: DatabaseHandle;
    let a: Instance;
    let b: Instance;
    let dataDir: string;
    let adminCookie: string;
    let gameId: number;
    const players: Array<{ cookie: string; teamId: number }> = [];
    const hubs: HubConnection[] = [];

    const newChallenge = async (flag: string) => {
      const created = await call(a.base, adminCookie, 'POST', `/api/edit/games/${gameId}/challenges`, {
        title: `challenge ${randomBytes(3).toString('hex')}`,
        category: 'Web',
        type: 'StaticAttachment',
      });
      assert.equal(created.status, 200, created.text);
      const challengeId = created.json<{ id: number }>().id;
      const flags = await call(
        a.base,
        adminCookie,
        'POST',
        `/api/edit/games/${gameId}/challenges/${challengeId}/flags`,
        [{ flag, attachmentType: 'None' }],
      );
      assert.equal(flags.status, 200, flags.text);
      const enabled = await call(a.base, adminCookie, 'PUT', `/api/edit/games/${gameId}/challenges/${challengeId}`, {
        isEnabled: true,
      });
      assert.equal(enabled.status, 200, enabled.text);
      return challengeId;
    };

    const submit = (base: string, cookie: string, challengeId: number, flag: string) =>
      call(base, cookie, 'POST', `/api/game/${gameId}/challenges/${challengeId}`, { flag });

    const unjudged = async (challengeId: number) =>
      (
        await database.db
          .select({ id: submissions.id })
          .from(submissions)
          .where(and(eq(submissions.challengeId, challengeId), eq(submissions.status, 'FlagSubmitted')))
      ).length;

    /** How many FlagSubmit events each submission of the challenge produced (judged once = one each). */
    const judgementsPerAnswer = async (challengeId: number) => {
      const rows = await database.db
        .select({ values: gameEvents.values })
        .from(gameEvents)
        .where(and(eq(gameEvents.gameId, gameId), eq(gameEvents.type, 'FlagSubmit')));
      return rows.filter((row) => row.values[3] === String(challengeId)).length;
    };

    before(async () => {
      // Unmigrated: the instances below migrate it themselves.
      scratch = await createScratchDatabase(databaseUrl!, { unmigrated: true });
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-multi-'));
      const env = {
        DATABASE_URL: scratch.url,
        REDIS_URL: redisUrl!,
        // Tests share one Redis: a key space of our own.
        REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:`,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DISABLE_RATE_LIMIT: 'true',
        CONTAINER_PROVIDER: 'None',
        ADMIN_PASSWORD: 'Multi-Admin-Passw0rd',
        DIST_DIR: path.join(dataDir, 'no-client'),
        // What is shown is that nothing acknowledged is lost, not how fast: on a machine busy with the
        // rest of the suite, draining the stopping instance's judge can take longer than the default 25 s.
        SHUTDOWN_TIMEOUT: '120',
      };
      // Started together, as a deployment does: one migrates the new database while the other waits.
      [a, b] = await Promise.all([
        startInstance({ ...env, DATA_DIR: path.join(dataDir, 'a') }),
        startInstance({ ...env, DATA_DIR: path.join(dataDir, 'b') }),
      ]);
      database = await openDatabase({ databaseUrl: scratch.url });

      const admin = await createUser(database.db, { role: 'Admin' });
      adminCookie = await createSessionCookie(database.db, admin.id);
      const game = await call(a.base, adminCookie, 'POST', '/api/edit/games', {
        title: `game ${randomBytes(3).toString('hex')}`,
        start: Date.now() - 3_600_000,
        end: Date.now() + 3_600_000,
        acceptWithoutReview: true,
      });
      assert.equal(game.status, 200, game.text);
      gameId = game.json<{ id: number }>().id;
      for (let n = 0; n < TEAMS; n += 1) {
        const user = await createUser(database.db);
        const team = await createTeam(database.db, user.id);
        const cookie = await createSessionCookie(database.db, user.id);
        // Joins alternate between the instances too.
        const joined = await call(n % 2 ? b.base : a.base, cookie, 'POST', `/api/game/${gameId}`, { teamId: team.id });
        assert.equal(joined.status, 200, joined.text);
        players.push({ cookie, teamId: team.id });
      }
    });

    after(async () => {
      for (const hub of hubs) await hub.stop().catch(() => undefined);
      for (const instance of [a, b]) {
        if (instance && instance.child.exitCode === null) {
          instance.child.kill('SIGTERM');
          await instance.exited;
        }
      }
      await database?.close();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('submissions sent to both instances are each judged once, with one first, second and third blood', async () => {
      const challengeId = await newChallenge('flag{both}');
      const responses = await Promise.all(
        players.map((player, n) => submit(n % 2 ? b.base : a.base, player.cookie, challengeId, 'flag{both}')),
      );
      for (const response of responses) assert.equal(response.status, 200, response.text);
      await until('every submission judged', async () => ((await unjudged(challengeId)) === 0 ? true : undefined));

      const statuses = await database.db
        .select({ status: submissions.status })
        .from(submissions)
        .where(eq(submissions.challengeId, challengeId));
      assert.equal(statuses.length, TEAMS);
      assert.ok(statuses.every((row) => row.status === 'Accepted'));
      assert.equal(await judgementsPerAnswer(challengeId), TEAMS);

      const solved = await database.db
        .select({ type: solves.type, solvedAt: solves.solvedAt })
        .from(solves)
        .where(eq(solves.challengeId, challengeId))
        .orderBy(solves.solvedAt);
      assert.equal(solved.length, TEAMS);
      assert.deepEqual(
        solved.slice(0, 4).map((row) => row.type),
        ['FirstBlood', 'SecondBlood', 'ThirdBlood', 'Normal'],
      );
      assert.equal(solved.filter((row) => row.type !== 'Normal').length, 3);
      const notices = await database.db
        .select({ type: gameNotices.type })
        .from(gameNotices)
        .where(
          and(eq(gameNotices.gameId, gameId), inArray(gameNotices.type, ['FirstBlood', 'SecondBlood', 'ThirdBlood'])),
        );
      assert.deepEqual(notices.map((row) => row.type).sort(), ['FirstBlood', 'SecondBlood', 'ThirdBlood']);
    });

    test('a notice posted through one instance reaches a hub client connected to the other', async () => {
      const hub = new HubConnectionBuilder()
        .withUrl(`${b.base}/hub/user?game=${gameId}`, { transport: HttpTransportType.WebSockets })
        .configureLogging(LogLevel.None)
        .build();
      hubs.push(hub);
      const received: Array<{ type: string; values: string[] }> = [];
      hub.on('ReceivedGameNotice', (notice: { type: string; values: string[] }) => received.push(notice));
      await hub.start();
      const posted = await call(a.base, adminCookie, 'POST', `/api/edit/games/${gameId}/notices`, {
        content: 'hello from instance A',
      });
      assert.equal(posted.status, 200, posted.text);
      await until('the notice at the hub client', async () => (received.length ? true : undefined), 10_000);
      // Delivered once, not once per instance.
      await sleep(300);
      assert.deepEqual(received, [{ ...received[0], type: 'Normal', values: ['hello from instance A'] }]);
    });

    test('both instances serve the same scoreboard', async () => {
      const board = (base: string) => call(base, undefined, 'GET', `/api/game/${gameId}/scoreboard`);
      const [fromA, fromB] = await until('the same board on both', async () => {
        const pair = await Promise.all([board(a.base), board(b.base)]);
        const settled = pair.every(
          (response) =>
            response.status === 200 &&
            response.json<{ items: Array<{ solvedCount: number }> }>().items.filter((item) => item.solvedCount > 0)
              .length === TEAMS,
        );
        return settled && pair[0].text === pair[1].text ? pair : undefined;
      });
      assert.equal(fromA.json<{ items: unknown[] }>().items.length, TEAMS);
      assert.equal(fromA.text, fromB.text);
      assert.ok(fromA.etag);
      assert.equal(fromA.etag, fromB.etag, 'a browser revalidating against either instance gets a 304');
    });

    test('stopping one instance while submissions are in flight loses no acknowledged submission', async () => {
      const challengeId = await newChallenge('flag{stop}');
      const acknowledged: number[] = [];
      let stopping = false;
      // Every team keeps submitting (wrong answers, then the right one) to both instances while B stops.
      const streams = players.map(async (player, n) => {
        for (let round = 0; round < 6; round += 1) {
          const base = (n + round) % 2 ? b.base : a.base;
          if (stopping && base === b.base && b.child.exitCode !== null) continue;
          const response = await submit(
            base,
            player.cookie,
            challengeId,
            round === 5 ? 'flag{stop}' : `flag{no${round}}`,
          );
          if (response.status === 200) acknowledged.push(response.json<number>());
        }
      });
      await until('some submissions acknowledged', async () => (acknowledged.length >= TEAMS ? true : undefined));
      stopping = true;
      b.child.kill('SIGTERM');
      await Promise.all(streams);
      assert.equal(await b.exited, 0, b.output());

      await until('every acknowledged submission judged', async () =>
        (await unjudged(challengeId)) === 0 ? true : undefined,
      );
      const rows = await database.db
        .select({ id: submissions.id, status: submissions.status })
        .from(submissions)
        .where(eq(submissions.challengeId, challengeId));
      const byId = new Map(rows.map((row) => [row.id, row.status]));
      for (const id of acknowledged) assert.notEqual(byId.get(id) ?? 'missing', 'FlagSubmitted');
      for (const id of acknowledged) assert.ok(byId.has(id), `acknowledged submission ${id} is stored`);
      assert.equal(await judgementsPerAnswer(challengeId), rows.length);
      // The survivor still answers.
      assert.equal((await call(a.base, undefined, 'GET', '/api/config')).status, 200);
    });
  });
