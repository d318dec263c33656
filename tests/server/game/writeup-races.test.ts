import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { files, participations } from '../../../server/src/db/schema';
import { blobExists, sha256 } from '../../../server/src/lib/blobs';
import { HttpError } from '../../../server/src/lib/http-error';
import { releaseFileRow, removeBlob, storeFile } from '../../../server/src/modules/attachments';
import { submitWriteup, writeupArchive } from '../../../server/src/modules/participations';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines, lockWaiters } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';
import { attachWriteup, joinTeam, referenceCount, uploadAsset } from '../edit/support';
import {
  acceptedPlayer,
  assertError,
  client,
  newGame,
  newPlayer,
  setTimes,
  times,
  type Client,
  type Player,
} from './support';

const pdf = (label: string) => Buffer.from(`%PDF-1.4 ${label} ${randomBytes(8).toString('hex')}`);

for (const engine of engines()) {
  describe(`writeup uploads against deletions (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: Client;
    let adminCookie: string;

    before(async () => {
      ctx = await createTestApp(engine);
      ({ cookie: adminCookie } = await asUser(ctx.app, 'Admin'));
      admin = client(ctx.app, adminCookie);
    });
    after(async () => ctx.close());

    /** An ended game whose writeups are still due, and an accepted team in it (deletable: the game is over). */
    async function endedGameWithPlayer() {
      const game = await newGame(admin, { writeupRequired: true, writeupDeadline: Date.now() + 2 * times.HOUR });
      const player = await acceptedPlayer(ctx.app, game.id);
      await setTimes(ctx.app, game.id, -2 * times.HOUR, -times.HOUR);
      return { game, player };
    }

    function upload(player: Player, gameId: number, content: Buffer) {
      const body = multipart([{ field: 'file', filename: 'w.pdf', content, contentType: 'application/pdf' }]);
      return ctx.app.inject({
        method: 'POST',
        url: `/api/game/${gameId}/writeup`,
        payload: body.payload,
        headers: { ...body.headers, cookie: player.cookie },
      });
    }

    async function participationOf(player: Player, gameId: number) {
      const rows = await ctx.app.db.select().from(participations).where(eq(participations.teamId, player.team.id));
      return rows.find((row) => row.gameId === gameId);
    }

    /**
     * A request whose file part never finishes: answered only by a route that does not read it.
     * The guard's timeout turns a route that waits for the body into a failure rather than a hang.
     */
    async function stalledUpload(url: string, cookie: string, length?: number) {
      const boundary = `----stalled${randomBytes(6).toString('hex')}`;
      const body = new PassThrough();
      body.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="w.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n%PDF-1.4 never ends',
      );
      try {
        return await ctx.app.inject({
          method: 'POST',
          url,
          payload: body,
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            ...(length === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(length) }),
            cookie,
          },
        });
      } finally {
        body.destroy();
      }
    }

    test('a writeup upload is refused before its body is read', { timeout: 30_000 }, async () => {
      const { game, player } = await endedGameWithPlayer();
      const stranger = await newPlayer(ctx.app);
      const missing = await stalledUpload('/api/game/987654321/writeup', stranger.cookie);
      assertError('gameSubmitWriteup', missing, 404);
      const notParticipating = await stalledUpload(`/api/game/${game.id}/writeup`, stranger.cookie);
      assertError('gameSubmitWriteup', notParticipating, 400);
      // A body announced as far over 20 MiB cannot be a valid writeup, even from a team that may send one.
      const oversized = await stalledUpload(`/api/game/${game.id}/writeup`, player.cookie, 64 * 1024 * 1024);
      assertError('gameSubmitWriteup', oversized, 400);
    });

    test("a writeup with an attachment's bytes leaves the attachment's name alone; an admin's re-upload renames", async () => {
      const { game, player } = await endedGameWithPlayer();
      const content = pdf('shared');
      const hash = await uploadAsset(ctx.app, adminCookie, content, 'challenge.zip');
      assert.equal((await upload(player, game.id, content)).statusCode, 200);
      const nameOf = async () => (await ctx.app.db.select().from(files).where(eq(files.hash, hash)))[0]?.name;
      assert.equal(await nameOf(), 'challenge.zip');
      assert.equal(await referenceCount(ctx.app.db, hash), 2);
      await uploadAsset(ctx.app, adminCookie, content, 'renamed.zip');
      assert.equal(await nameOf(), 'renamed.zip');
    });

    test('a writeup whose participation went while it was read is refused and keeps no file', async () => {
      const { game, player } = await endedGameWithPlayer();
      const content = pdf('late');
      const user = { ...player.user, role: 'User' as const };
      let deleted: LightMyRequestResponse | undefined;
      const submitting = submitWriteup(ctx.app.db, ctx.env.dataDir, game.id, user, async () => {
        // The team goes after the checks passed, while its upload is still arriving.
        deleted = await player.api('DELETE', `/api/team/${player.team.id}`);
        return { filename: 'w.pdf', mimetype: 'application/pdf', buffer: content };
      });
      await assert.rejects(submitting, (error) => error instanceof HttpError && error.statusCode === 400);
      assert.equal(deleted?.statusCode, 200, deleted?.body);
      assert.equal(await referenceCount(ctx.app.db, sha256(content)), undefined);
      assert.equal(blobExists(ctx.env.dataDir, sha256(content)), false);
    });

    test(
      'a writeup archive given up between two entries closes the file it opened for the next',
      { timeout: 30_000 },
      async () => {
        const game = await newGame(admin);
        const { dataDir } = ctx.env;
        const newer = await joinTeam(ctx.app.db, game.id, 'Accepted');
        const older = await joinTeam(ctx.app.db, game.id, 'Accepted');
        await attachWriteup(
          ctx.app.db,
          dataDir,
          newer.participation.id,
          `%PDF ${randomBytes(4).toString('hex')}`,
          new Date(),
        );
        await attachWriteup(
          ctx.app.db,
          dataDir,
          older.participation.id,
          `%PDF ${randomBytes(4).toString('hex')}`,
          new Date(0),
        );
        const opened: fs.promises.FileHandle[] = [];
        const open = fs.promises.open;
        fs.promises.open = async (...args: Parameters<typeof open>) => {
          const handle = await open(...args);
          if (String(args[0]).startsWith(dataDir)) opened.push(handle);
          return handle;
        };
        try {
          const { stream } = await writeupArchive(ctx.app.db, dataDir, game.id);
          // The archive is produced a chunk per read: read until the second file is open, then stop, so
          // the next chunk (its header) is made but the entry's contents are never asked for.
          while (opened.length < 2 || stream.readableLength === 0) {
            if (opened.length < 2) stream.read();
            await new Promise(setImmediate);
          }
          const next = opened[1]!;
          stream.destroy();
          // A closed handle's descriptor reads -1; one left open waits for the garbage collector.
          while (next.fd !== -1) await new Promise(setImmediate);
        } finally {
          fs.promises.open = open;
        }
      },
    );

    // Two connections: the test holds a participation row locked while the others queue on it.
    if (engine.name === 'postgres') {
      async function untilWaiting(count: number): Promise<void> {
        const end = Date.now() + 15_000;
        while ((await lockWaiters(ctx.app.db)) < count) {
          if (Date.now() > end) assert.fail(`${count} statements never waited on a lock`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }

      /**
       * A writeup replacement queued on the participation before a deletion that also queues on it
       * (the test's transaction holds the row until both wait), then let go: the deletion must release
       * the new writeup, not the one the replacement already released.
       */
      async function replaceWhileDeleting(
        participationId: number,
        replace: () => Promise<LightMyRequestResponse>,
        remove: () => Promise<LightMyRequestResponse>,
      ) {
        let replacing: Promise<LightMyRequestResponse> | undefined;
        let removing: Promise<LightMyRequestResponse> | undefined;
        await ctx.app.db.transaction(async (tx) => {
          await tx.execute(sql`select id from participations where id = ${participationId} for update`);
          replacing = replace();
          await untilWaiting(1);
          removing = remove();
          await untilWaiting(2);
        });
        return { replaced: await replacing!, removed: await removing! };
      }

      const deletions: Array<[string, (player: Player, gameId: number) => Promise<LightMyRequestResponse>]> = [
        [
          'a team deleted while its writeup is replaced',
          (player) => player.api('DELETE', `/api/team/${player.team.id}`),
        ],
        [
          'a game deleted while a writeup is replaced',
          (_player, gameId) => admin('DELETE', `/api/edit/games/${gameId}`),
        ],
      ];
      for (const [situation, remove] of deletions) {
        test(`${situation} releases each writeup once`, async () => {
          const { game, player } = await endedGameWithPlayer();
          const [first, second] = [pdf('first'), pdf('second')];
          assert.equal((await upload(player, game.id, first)).statusCode, 200);
          // The same bytes held by someone else too: they must survive the deletion.
          await uploadAsset(ctx.app, adminCookie, first, 'shared.pdf');
          const participation = (await participationOf(player, game.id))!;
          const { replaced, removed } = await replaceWhileDeleting(
            participation.id,
            () => upload(player, game.id, second),
            () => remove(player, game.id),
          );
          assert.equal(replaced.statusCode, 200, replaced.body);
          assert.equal(removed.statusCode, 200, removed.body);
          assert.equal(await referenceCount(ctx.app.db, sha256(first)), 1);
          assert.equal(blobExists(ctx.env.dataDir, sha256(first)), true);
          assert.equal(await referenceCount(ctx.app.db, sha256(second)), undefined);
          assert.equal(blobExists(ctx.env.dataDir, sha256(second)), false);
        });
      }

      test('a blob is not unlinked under a store of the same bytes that has yet to commit', async () => {
        const content = Buffer.from(`bytes ${randomBytes(8).toString('hex')}`);
        const hash = sha256(content);
        const { dataDir } = ctx.env;
        // The last reference dropped and committed; the blob is still on disk, its unlink to come.
        await storeFile(ctx.app.db, dataDir, { buffer: content, name: 'a' });
        assert.equal(await ctx.app.db.transaction((tx) => releaseFileRow(tx, hash)), 'deleted');
        assert.equal(blobExists(dataDir, hash), true);
        let removing: Promise<void> | undefined;
        await ctx.app.db.transaction(async (tx) => {
          // Someone stores the same bytes again (the blob is there, so it is not rewritten)…
          await storeFile(tx, dataDir, { buffer: content, name: 'b' });
          // …while the earlier release goes on to unlink: it has to wait for that row.
          removing = removeBlob(ctx.app.db, dataDir, hash);
          await untilWaiting(1);
        });
        await removing;
        const [row] = await ctx.app.db.select().from(files).where(eq(files.hash, hash));
        assert.equal(row?.referenceCount, 1);
        assert.equal(blobExists(dataDir, hash), true);
      });
    }
  });
}
