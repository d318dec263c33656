import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { gameInstances, participations, teams } from '../../../server/src/db/schema';
import { participationStatuses, type ParticipationStatus } from '../../../server/src/db/schema/enums';
import { blobExists } from '../../../server/src/lib/blobs';
import { canTransition } from '../../../server/src/modules/participations/review.service';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import {
  assertError,
  assertOk,
  attachWriteup,
  client,
  createChallenge,
  createGame,
  joinTeam,
  referenceCount,
  type Client,
} from './support';
import { parseTar } from './tar-reader';

const ALLOWED: Array<[ParticipationStatus, ParticipationStatus]> = [
  ['Pending', 'Accepted'],
  ['Pending', 'Rejected'],
  ['Accepted', 'Suspended'],
  ['Suspended', 'Accepted'],
];
const STORED: ParticipationStatus[] = ['Pending', 'Accepted', 'Rejected', 'Suspended'];

for (const engine of engines()) {
  describe(`participation review and writeups (${engine.name})`, () => {
    let ctx: TestApp;
    let api: Client;
    let cookie: string;

    before(async () => {
      ctx = await createTestApp(engine);
      ({ cookie } = await asUser(ctx.app, 'Admin'));
      api = client(ctx.app, cookie);
    });
    after(async () => ctx.close());

    const review = (id: number, body: Record<string, unknown>) => api('PUT', `/api/admin/participation/${id}`, body);
    const stored = async (id: number) =>
      (await ctx.app.db.select().from(participations).where(eq(participations.id, id)))[0]!;

    test('the transition table is exactly client spec §4', () => {
      for (const from of participationStatuses) {
        for (const to of participationStatuses) {
          const expected = ALLOWED.some(([a, b]) => a === from && b === to);
          assert.equal(canTransition(from, to), expected, `${from} → ${to}`);
        }
      }
    });

    test('every allowed transition is applied; every other one is a 400 that changes nothing', async () => {
      const game = await createGame(api);
      for (const from of STORED) {
        for (const to of participationStatuses) {
          if (to === from) continue;
          const { participation } = await joinTeam(ctx.app.db, game.id, from);
          const response = await review(participation.id, { status: to });
          if (ALLOWED.some(([a, b]) => a === from && b === to)) {
            assert.equal(response.statusCode, 200, `${from} → ${to}: ${response.body}`);
            assert.equal(response.body, '');
            assert.equal((await stored(participation.id)).status, to);
          } else {
            assert.equal(response.statusCode, 400, `${from} → ${to}: ${response.body}`);
            assertError('adminParticipation', response, 400);
            assert.equal((await stored(participation.id)).status, from, `${from} → ${to} changed nothing`);
          }
        }
      }
    });

    test('asking for the current status is no transition and is allowed', async () => {
      const game = await createGame(api);
      for (const status of STORED) {
        const { participation } = await joinTeam(ctx.app.db, game.id, status);
        assert.equal((await review(participation.id, { status })).statusCode, 200);
        assert.equal((await stored(participation.id)).status, status);
      }
      const { participation } = await joinTeam(ctx.app.db, game.id);
      assert.equal((await review(participation.id, {})).statusCode, 200);
      assert.equal((await review(participation.id, { status: null, division: null })).statusCode, 200);
    });

    test('accepting locks the team and gives it instances of the enabled challenges', async () => {
      const game = await createGame(api);
      const enabled = await createChallenge(api, game.id);
      await api('POST', `/api/edit/games/${game.id}/challenges/${enabled.id}/flags`, [{ flag: 'f' }]);
      assertOk(
        'editUpdateGameChallenge',
        await api('PUT', `/api/edit/games/${game.id}/challenges/${enabled.id}`, { isEnabled: true }),
      );
      await createChallenge(api, game.id);
      const { team, participation } = await joinTeam(ctx.app.db, game.id);
      assert.equal((await review(participation.id, { status: 'Accepted' })).statusCode, 200);
      const [teamRow] = await ctx.app.db.select().from(teams).where(eq(teams.id, team.id));
      assert.equal(teamRow!.locked, true);
      const instances = await ctx.app.db
        .select()
        .from(gameInstances)
        .where(eq(gameInstances.participationId, participation.id));
      assert.deepEqual(
        instances.map((instance) => instance.challengeId),
        [enabled.id],
      );
      // Suspending and accepting again creates nothing twice.
      assert.equal((await review(participation.id, { status: 'Suspended' })).statusCode, 200);
      assert.equal((await review(participation.id, { status: 'Accepted' })).statusCode, 200);
      assert.equal(
        (await ctx.app.db.select().from(gameInstances).where(eq(gameInstances.participationId, participation.id)))
          .length,
        1,
      );
    });

    test('a division must be one of the game’s; an invalid one changes nothing, status included', async () => {
      const game = await createGame(api, { divisions: ['Students', 'Open'] });
      const { participation } = await joinTeam(ctx.app.db, game.id, 'Pending', 'Open');
      assert.equal((await review(participation.id, { division: 'Students' })).statusCode, 200);
      assert.equal((await stored(participation.id)).division, 'Students');
      for (const division of ['Nope', '', 'students']) {
        assertError('adminParticipation', await review(participation.id, { status: 'Accepted', division }), 400);
      }
      const row = await stored(participation.id);
      assert.equal(row.status, 'Pending');
      assert.equal(row.division, 'Students');
      assert.equal((await review(participation.id, { status: 'Accepted', division: 'Open' })).statusCode, 200);
      assert.deepEqual(
        [(await stored(participation.id)).status, (await stored(participation.id)).division],
        ['Accepted', 'Open'],
      );

      const plain = await createGame(api);
      const other = await joinTeam(ctx.app.db, plain.id);
      assertError('adminParticipation', await review(other.participation.id, { division: 'Anything' }), 400);
      assert.equal((await review(other.participation.id, { division: '' })).statusCode, 200);
      assert.equal((await stored(other.participation.id)).division, null);
    });

    test('an unknown participation is a 404', async () => {
      assertError('adminParticipation', await review(999999, { status: 'Accepted' }), 404);
      assertError('adminParticipation', await review(999999, { status: 'Bogus' }), 400);
    });

    test('writeups: listed newest first, downloaded as tar, deleted with their files', async () => {
      const game = await createGame(api, { title: 'Final/Round' });
      const older = await joinTeam(ctx.app.db, game.id, 'Accepted');
      const newer = await joinTeam(ctx.app.db, game.id, 'Accepted');
      await joinTeam(ctx.app.db, game.id, 'Accepted');
      const olderHash = await attachWriteup(
        ctx.app.db,
        ctx.env.dataDir,
        older.participation.id,
        '%PDF older',
        new Date(Date.now() - 60_000),
      );
      const newerHash = await attachWriteup(
        ctx.app.db,
        ctx.env.dataDir,
        newer.participation.id,
        '%PDF newer',
        new Date(),
      );

      const list = assertOk('adminWriteups', await api('GET', `/api/admin/writeups/${game.id}`)) as Array<{
        id: number;
        team: { id: number; name: string; members: unknown; locked: boolean };
        url: string;
        uploadTimeUtc: number;
      }>;
      assert.deepEqual(
        list.map((item) => item.id),
        [newer.participation.id, older.participation.id],
      );
      assert.equal(list[0]!.team.id, newer.team.id);
      assert.equal(list[0]!.team.name, newer.team.name);
      assert.equal(list[0]!.team.members, null);
      assert.equal(list[0]!.url, `/assets/${newerHash}/writeup-${newer.participation.id}.pdf`);

      const download = await api('GET', `/api/admin/writeups/${game.id}/all`);
      assert.equal(download.statusCode, 200);
      assert.equal(download.headers['content-type'], 'application/x-tar');
      assert.match(
        String(download.headers['content-disposition']),
        /^attachment; filename="Writeups-Final_Round-\d{8}-\d{2}\.\d{2}\.\d{2}Z\.tar"/,
      );
      const entries = parseTar(download.rawPayload);
      assert.deepEqual(
        entries.map((entry) => [entry.name, entry.data.toString()]),
        [
          [`${newer.team.id}-${newer.team.name}.pdf`, '%PDF newer'],
          [`${older.team.id}-${older.team.name}.pdf`, '%PDF older'],
        ],
      );

      const empty = await createGame(api);
      const none = await api('GET', `/api/admin/writeups/${empty.id}/all`);
      assert.equal(none.statusCode, 200);
      assert.deepEqual(parseTar(none.rawPayload), []);
      assert.deepEqual(assertOk('adminWriteups', await api('GET', `/api/admin/writeups/${empty.id}`)), []);

      const deleted = await api('DELETE', `/api/edit/games/${game.id}/writeups`);
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.deepEqual(assertOk('adminWriteups', await api('GET', `/api/admin/writeups/${game.id}`)), []);
      for (const hash of [olderHash, newerHash]) {
        assert.equal(await referenceCount(ctx.app.db, hash), undefined);
        assert.equal(blobExists(ctx.env.dataDir, hash), false);
      }
      assert.equal((await stored(older.participation.id)).writeupUploadedAt, null);
    });

    test('writeup operations answer 404 for an unknown game', async () => {
      assertError('adminWriteups', await api('GET', '/api/admin/writeups/999999'), 404);
      assertError('adminDownloadAllWriteups', await api('GET', '/api/admin/writeups/999999/all'), 404);
      assertError('editDeleteGameWriteUps', await api('DELETE', '/api/edit/games/999999/writeups'), 404);
    });
  });
}
