import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client';
import { createScratchDatabase } from '../helpers/database';
import { startServerProcess, stopServerProcess, until, type ServerProcess } from '../helpers/server-process';
import { assertJudgedOnce, flood, serverEnv, startGame, unjudged, type PlayingGame } from './support';

/**
 * `kill -9` of the server while submissions pour in, then a restart: everything the killed process
 * acknowledged is judged by the new one, exactly once. Needs PostgreSQL (DATABASE_URL; CI sets it):
 * the embedded PGlite is one process's files, which a killed process may leave half-written.
 */
const databaseUrl = process.env.DATABASE_URL;
const TEAMS = 12;

if (databaseUrl)
  describe('kill -9 of the server during a submission flood', () => {
    let scratch: { url: string; drop(): Promise<void> };
    let database: DatabaseHandle;
    let dataDir: string;
    let env: Record<string, string>;
    let server: ServerProcess;
    let game: PlayingGame;
    const base = () => server.base;

    before(async () => {
      scratch = await createScratchDatabase(databaseUrl);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-crash-kill-'));
      env = serverEnv(dataDir, { DATABASE_URL: scratch.url });
      server = await startServerProcess(env);
      database = await openDatabase({ databaseUrl: scratch.url });
      game = await startGame(database, base, TEAMS);
    });

    after(async () => {
      await stopServerProcess(server);
      await database?.close();
      await scratch?.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('a restart judges every acknowledged submission exactly once, bloods included', async (t) => {
      const challenge = await game.newChallenge('flag{killed}');
      const acknowledged: number[] = [];
      // Killed at a moment when acknowledged submissions are waiting for the judge (the point of the
      // test); the judge is quick, so a kill can miss that moment: then the round is repeated.
      let leftByKill = 0;
      for (let round = 0; round < 3 && leftByKill === 0; round += 1) {
        const submitting = flood(base, game, challenge, 'flag{killed}');
        const before = acknowledged.length;
        await until(
          'acknowledged submissions waiting for the judge',
          async () =>
            submitting.acknowledged.length >= 3 * TEAMS && (await unjudged(database, challenge.id)) > 0
              ? true
              : undefined,
          120_000,
        );
        await stopServerProcess(server, 'SIGKILL');
        await submitting.stop();
        acknowledged.push(...submitting.acknowledged);
        assert.deepEqual(submitting.refusals, [], 'the only failures are the killed connections');
        assert.ok(acknowledged.length > before);
        leftByKill = await unjudged(database, challenge.id);
        server = await startServerProcess(env);
      }
      assert.ok(leftByKill > 0, 'a kill left acknowledged submissions unjudged');
      t.diagnostic(`${acknowledged.length} acknowledged, ${leftByKill} left unjudged by the kill`);

      await until('the restarted server to judge what was left', async () =>
        (await unjudged(database, challenge.id)) === 0 ? true : undefined,
      );
      await assertJudgedOnce(database, game.gameId, challenge, acknowledged);
    });
  });
