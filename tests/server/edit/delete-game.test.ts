import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  attachments,
  challenges,
  cheatInfo,
  containers,
  files,
  flags,
  gameEvents,
  gameInstances,
  gameNotices,
  games,
  participations,
  solves,
  submissions,
  userParticipations,
} from '../../../server/src/db/schema';
import { blobExists } from '../../../server/src/lib/blobs';
import { bus } from '../../../server/src/lib/bus';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';
import {
  assertError,
  attachWriteup,
  client,
  createChallenge,
  createGame,
  joinTeam,
  png,
  referenceCount,
  uploadAsset,
  type Client,
} from './support';

for (const engine of engines()) {
  describe(`delete a game (${engine.name})`, () => {
    let ctx: TestApp;
    let api: Client;
    let cookie: string;

    before(async () => {
      ctx = await createTestApp(engine);
      ({ cookie } = await asUser(ctx.app, 'Admin'));
      api = client(ctx.app, cookie);
    });
    after(async () => ctx.close());

    /** A game with one of everything a game can own, through the API where there is one. */
    async function populate(label: string) {
      const db = ctx.app.db;
      const game = await createGame(api);
      const base = `/api/edit/games/${game.id}`;
      const posterBody = multipart([
        {
          field: 'file',
          filename: 'p.png',
          content: await png(4, 4, `#${label.charCodeAt(0).toString(16).repeat(3)}`),
        },
      ]);
      const poster = await ctx.app.inject({
        method: 'PUT',
        url: `${base}/poster`,
        payload: posterBody.payload,
        headers: { ...posterBody.headers, cookie },
      });
      const posterHash = poster.json<string>().split('/')[2]!;

      const attachmentHash = await uploadAsset(ctx.app, cookie, `attachment of ${label}`);
      const flagHash = await uploadAsset(ctx.app, cookie, `flag file of ${label}`);
      const staticChallenge = await createChallenge(api, game.id);
      await api('POST', `${base}/challenges/${staticChallenge.id}/attachment`, {
        attachmentType: 'Local',
        fileHash: attachmentHash,
      });
      await api('POST', `${base}/challenges/${staticChallenge.id}/flags`, [{ flag: 'flag{static}' }]);
      const dynamic = await createChallenge(api, game.id, 'DynamicAttachment');
      await api('POST', `${base}/challenges/${dynamic.id}/flags`, [
        { flag: 'flag{dyn}', attachmentType: 'Local', fileHash: flagHash },
      ]);
      await api('POST', `${base}/notices`, { content: `notice of ${label}` });

      const player = await joinTeam(db, game.id, 'Accepted');
      const source = await joinTeam(db, game.id, 'Accepted');
      await db
        .insert(userParticipations)
        .values({ userId: player.captain.id, gameId: game.id, participationId: player.participation.id });
      // Enabled after the teams joined, so both get an instance of it.
      await api('PUT', `${base}/challenges/${staticChallenge.id}`, { isEnabled: true });
      const writeupHash = await attachWriteup(
        db,
        ctx.env.dataDir,
        player.participation.id,
        `%PDF ${label}`,
        new Date(),
      );
      const [instance] = await db
        .select()
        .from(gameInstances)
        .where(eq(gameInstances.participationId, player.participation.id));
      const [playerContainer] = await db
        .insert(containers)
        .values({
          image: 'img',
          containerId: `docker-${label}-player`,
          expectStopAt: new Date(),
          gameInstanceId: instance!.id,
        })
        .returning();
      const [testContainer] = await db
        .insert(containers)
        .values({ id: randomUUID(), image: 'img', containerId: `docker-${label}-test`, expectStopAt: new Date() })
        .returning();
      await db.update(challenges).set({ testContainerId: testContainer!.id }).where(eq(challenges.id, dynamic.id));
      const [submission] = await db
        .insert(submissions)
        .values({
          answer: 'flag{static}',
          status: 'Accepted',
          userId: player.captain.id,
          teamId: player.team.id,
          participationId: player.participation.id,
          gameId: game.id,
          challengeId: staticChallenge.id,
        })
        .returning();
      await db.insert(solves).values({
        participationId: player.participation.id,
        challengeId: staticChallenge.id,
        submissionId: submission!.id,
        solvedAt: new Date(),
      });
      await db.insert(cheatInfo).values({
        submissionId: submission!.id,
        gameId: game.id,
        submitParticipationId: player.participation.id,
        sourceParticipationId: source.participation.id,
      });
      await db
        .insert(gameEvents)
        .values({ gameId: game.id, type: 'FlagSubmit', values: ['Accepted'], teamId: player.team.id });

      const challengeIds = [staticChallenge.id, dynamic.id];
      const attachmentIds = (
        await db
          .select({ id: attachments.id })
          .from(attachments)
          .innerJoin(challenges, eq(challenges.attachmentId, attachments.id))
          .where(inArray(challenges.id, challengeIds))
      )
        .concat(
          await db
            .select({ id: attachments.id })
            .from(attachments)
            .innerJoin(flags, eq(flags.attachmentId, attachments.id))
            .where(inArray(flags.challengeId, challengeIds)),
        )
        .map((row) => row.id);
      return {
        gameId: game.id,
        challengeIds,
        participationIds: [player.participation.id, source.participation.id],
        attachmentIds,
        containerIds: [playerContainer!.id, testContainer!.id],
        submissionId: submission!.id,
        posterHash,
        writeupHash,
        attachmentHash,
        flagHash,
      };
    }

    type Owned = Awaited<ReturnType<typeof populate>>;

    /** Rows that belong to the game, table by table. */
    async function rowsOf(owned: Owned): Promise<Record<string, number>> {
      const db = ctx.app.db;
      const countWhere = async (table: PgTable, where: SQL | undefined) =>
        (
          await db
            .select({ value: sql<number>`count(*)::int` })
            .from(table)
            .where(where)
        )[0]!.value;
      return {
        games: await countWhere(games, eq(games.id, owned.gameId)),
        challenges: await countWhere(challenges, eq(challenges.gameId, owned.gameId)),
        flags: await countWhere(flags, inArray(flags.challengeId, owned.challengeIds)),
        attachments: await countWhere(attachments, inArray(attachments.id, owned.attachmentIds)),
        participations: await countWhere(participations, eq(participations.gameId, owned.gameId)),
        userParticipations: await countWhere(userParticipations, eq(userParticipations.gameId, owned.gameId)),
        gameInstances: await countWhere(gameInstances, inArray(gameInstances.challengeId, owned.challengeIds)),
        containers: await countWhere(containers, inArray(containers.id, owned.containerIds)),
        submissions: await countWhere(submissions, eq(submissions.gameId, owned.gameId)),
        solves: await countWhere(solves, inArray(solves.challengeId, owned.challengeIds)),
        cheatInfo: await countWhere(cheatInfo, eq(cheatInfo.gameId, owned.gameId)),
        gameNotices: await countWhere(gameNotices, eq(gameNotices.gameId, owned.gameId)),
        gameEvents: await countWhere(gameEvents, eq(gameEvents.gameId, owned.gameId)),
      };
    }

    test('removes every row of the game in one go, releases its files and leaves other games alone', async () => {
      const a = await populate('a');
      const b = await populate('b');
      const before = await rowsOf(a);
      for (const [table, value] of Object.entries(before)) assert.ok(value > 0, `the fixture has ${table}`);
      const bBefore = await rowsOf(b);
      assert.equal(await referenceCount(ctx.app.db, a.attachmentHash), 2);

      const removed: unknown[] = [];
      const listener = (event: unknown) => removed.push(event);
      bus.on('containersRemoved', listener);
      let response;
      try {
        response = await api('DELETE', `/api/edit/games/${a.gameId}`);
      } finally {
        bus.off('containersRemoved', listener);
      }
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.body, '');

      const after = await rowsOf(a);
      assert.deepEqual(after, Object.fromEntries(Object.keys(before).map((table) => [table, 0])));
      assert.deepEqual(await rowsOf(b), bBefore, 'the other game is untouched');
      // Files owned by the game alone are gone; uploads keep their own reference.
      for (const hash of [a.posterHash, a.writeupHash]) {
        assert.equal(await referenceCount(ctx.app.db, hash), undefined);
        assert.equal(blobExists(ctx.env.dataDir, hash), false);
      }
      assert.equal(await referenceCount(ctx.app.db, a.attachmentHash), 1);
      assert.equal(await referenceCount(ctx.app.db, a.flagHash), 1);
      for (const hash of [b.posterHash, b.writeupHash]) assert.equal(await referenceCount(ctx.app.db, hash), 1);
      assert.deepEqual(removed, [{ containerIds: ['docker-a-player', 'docker-a-test'] }]);
      assertError('editGetGame', await api('GET', `/api/edit/games/${a.gameId}`), 404);
      assertError('editDeleteGame', await api('DELETE', `/api/edit/games/${a.gameId}`), 404);
    });

    test('a failure part-way rolls everything back and answers 400', async () => {
      const a = await populate('c');
      const b = await populate('d');
      // Game d's challenge uses game c's file too, and the count is corrupted to think c holds the
      // last reference: releasing it then hits d's attachment (ON DELETE RESTRICT) mid-transaction.
      await api('POST', `/api/edit/games/${b.gameId}/challenges/${b.challengeIds[0]}/attachment`, {
        attachmentType: 'Local',
        fileHash: a.attachmentHash,
      });
      await ctx.app.db.update(files).set({ referenceCount: 1 }).where(eq(files.hash, a.attachmentHash));
      const before = await rowsOf(a);
      const response = await api('DELETE', `/api/edit/games/${a.gameId}`);
      assertError('editDeleteGame', response, 400);
      assert.deepEqual(await rowsOf(a), before, 'nothing was deleted');
      assert.equal(await referenceCount(ctx.app.db, a.posterHash), 1);
      assert.equal(blobExists(ctx.env.dataDir, a.posterHash), true);

      await ctx.app.db.update(files).set({ referenceCount: 3 }).where(eq(files.hash, a.attachmentHash));
      assert.equal((await api('DELETE', `/api/edit/games/${a.gameId}`)).statusCode, 200);
      assert.equal(await referenceCount(ctx.app.db, a.attachmentHash), 2);
    });
  });
}
