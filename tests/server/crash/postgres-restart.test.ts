import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-services';
import { call, startServerProcess, stopServerProcess, until, type ServerProcess } from '../helpers/server-process';
import { assertJudgedOnce, flood, serverEnv, startGame, unjudged, type PlayingGame } from './support';

/**
 * PostgreSQL stopped and started again while the server is under load (submissions and scoreboard
 * reads): while it is down requests fail fast with a 503 `{title, status}` and /readyz says 503; once
 * it is back the same process serves and judges again with nobody touching it. The cluster is the
 * test's own (the machine's shared one serves other tests). Runs where DATABASE_URL is set (CI), as
 * the other PostgreSQL tests do; a machine without PostgreSQL's binaries fails here with a message.
 */
const TEAMS = 8;
/** A request taking longer than this while the database is down counts as a hang. */
const HANG_MS = 30_000;

if (process.env.DATABASE_URL)
  describe('PostgreSQL restarted under load', () => {
    let postgres: PrivatePostgres;
    let database: DatabaseHandle;
    let dataDir: string;
    let server: ServerProcess;
    let game: PlayingGame;
    const base = () => server.base;

    before(async () => {
      postgres = await startPrivatePostgres();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-crash-pg-'));
      server = await startServerProcess(serverEnv(dataDir, { DATABASE_URL: postgres.url }));
      database = await openDatabase({ databaseUrl: postgres.url });
      game = await startGame(database, base, TEAMS);
    });

    after(async () => {
      await stopServerProcess(server);
      await database?.close();
      await postgres?.destroy();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('requests fail with a clean 503 while it is down; afterwards the server serves and judges again', async (t) => {
      const challenge = await game.newChallenge('flag{restart}');
      const load = flood(base, game, challenge, 'flag{restart}', { boards: true, timeoutMs: HANG_MS });
      // A failed wait must not leave the flood running (the test process would never end).
      t.after(() => load.stop());
      await until('load under way', async () => (load.acknowledged.length >= 2 * TEAMS ? true : undefined), 60_000);

      await postgres.stop('fast');
      const ackedBeforeOutage = load.acknowledged.length;
      await until(
        '/readyz to report the database down',
        async () => {
          assert.equal(server.child.exitCode, null, `the server kept running:\n${server.output()}`);
          return (await call(base(), undefined, 'GET', '/readyz', undefined, HANG_MS)).status === 503
            ? true
            : undefined;
        },
        30_000,
      );
      assert.equal(server.child.exitCode, null, `the server kept running:\n${server.output()}`);
      const ready = await call(base(), undefined, 'GET', '/readyz', undefined, HANG_MS);
      assert.equal(ready.status, 503, ready.text);
      assert.deepEqual(ready.json<{ failed: string[] }>().failed, ['database']);
      // The load meets the outage: refusals, not hangs.
      await until('submissions refused during the outage', async () =>
        load.refusals.filter((refusal) => refusal.status === 503).length >= TEAMS ? true : undefined,
      );

      await postgres.start();
      await until(
        'the server to accept submissions again',
        async () => (load.acknowledged.length >= ackedBeforeOutage + 2 * TEAMS ? true : undefined),
        60_000,
      );
      assert.equal((await call(base(), undefined, 'GET', '/readyz')).status, 200);
      await load.stop();

      assert.equal(load.hangs, 0, 'no request hung while the database was down');
      assert.equal(server.child.exitCode, null, `the server kept running:\n${server.output()}`);
      for (const refusal of load.refusals) {
        assert.equal(refusal.status, 503, refusal.text);
        assert.deepEqual(Object.keys(refusal.json<object>()).sort(), ['status', 'title'], refusal.text);
        assert.equal(refusal.json<{ status: number }>().status, 503);
      }
      assert.ok(load.boards > 0);
      await until(
        'every acknowledged submission judged',
        async () => ((await unjudged(database, challenge.id)) === 0 ? true : undefined),
        60_000,
      );
      await assertJudgedOnce(database, game.gameId, challenge, load.acknowledged);
    });
  });
