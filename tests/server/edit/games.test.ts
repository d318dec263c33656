import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { gameNotices, games } from '../../../server/src/db/schema';
import { gameTeamToken } from '../../../server/src/lib/game-keys';
import { blobExists } from '../../../server/src/lib/blobs';
import { verifyTeamToken } from '../../../server/src/lib/team-token';
import { bus } from '../../../server/src/lib/bus';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';
import { assertError, assertOk, client, createGame, gameBody, png, referenceCount, type Client } from './support';

const XOR_KEY = 'an xor key for tests';
const DEFAULT_BLOOD_BONUS = (50 << 20) + (30 << 10) + 10;
const HOSTILE =
  '<script>alert(1)</script> <img src=x onerror=alert(2)> "quotes" \\ back\\slash\n# 标题 \u2028 ](javascript:alert(3))';

for (const engine of engines()) {
  describe(`edit games (${engine.name})`, () => {
    let ctx: TestApp;
    let api: Client;
    let cookie: string;

    before(async () => {
      ctx = await createTestApp(engine, { env: testEnv({ XOR_KEY }) });
      ({ cookie } = await asUser(ctx.app, 'Admin'));
      api = client(ctx.app, cookie);
    });
    after(async () => ctx.close());

    const gameCount = async () => (await ctx.app.db.select({ value: count() }).from(games))[0]!.value;
    const getGame = async (id: number) => assertOk('editGetGame', await api('GET', `/api/edit/games/${id}`));

    test('creates a game with the entity defaults and a fresh key pair', async () => {
      const body = gameBody();
      const game = assertOk('editAddGame', await api('POST', '/api/edit/games', body)) as Record<string, unknown>;
      assert.equal(typeof game.id, 'number');
      assert.equal(game.title, body.title);
      assert.equal(game.start, body.start);
      assert.equal(game.end, body.end);
      assert.equal(game.practiceMode, true);
      assert.equal(game.containerCountLimit, 3);
      assert.equal(game.teamMemberCountLimit, 0);
      assert.equal(game.bloodBonus, DEFAULT_BLOOD_BONUS);
      assert.equal(game.hidden, false);
      assert.equal(game.acceptWithoutReview, false);
      assert.equal(game.writeupRequired, false);
      assert.equal(game.writeupDeadline, 0);
      assert.equal(game.poster, null);
      assert.equal(game.inviteCode, null);
      assert.equal(game.divisions, null);
      assert.equal(Buffer.from(game.publicKey as string, 'base64').length, 32);
      assert.deepEqual(await getGame(game.id as number), game);
    });

    test('stores the private key XOR-ed with XOR_KEY; team tokens verify with the public key', async () => {
      const game = await createGame(api);
      const [row] = await ctx.app.db.select().from(games).where(eq(games.id, game.id));
      assert.equal(Buffer.from(row!.privateKey, 'base64').length, 32);
      const token = gameTeamToken(row!.privateKey, XOR_KEY, 5);
      assert.equal(verifyTeamToken(token, game.publicKey), 'valid');
      // Read without the XOR key, the stored bytes sign nothing valid.
      assert.equal(verifyTeamToken(gameTeamToken(row!.privateKey, undefined, 5), game.publicKey), 'invalid');
    });

    test('lists games newest first with the total of all games, paged', async () => {
      for (let i = 0; i < 3; i++) await createGame(api);
      const total = await gameCount();
      const page = assertOk('editGetGames', await api('GET', '/api/edit/games?count=2&skip=1')) as {
        data: Array<{ id: number }>;
        length: number;
        total: number;
      };
      assert.equal(page.length, 2);
      assert.equal(page.total, total);
      const all = assertOk('editGetGames', await api('GET', '/api/edit/games')) as { data: Array<{ id: number }> };
      const ids = all.data.map((game) => game.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
      );
      assert.deepEqual(
        page.data.map((game) => game.id),
        ids.slice(1, 3),
      );
      assertError('editGetGames', await api('GET', '/api/edit/games?count=101'), 400);
      const empty = assertOk('editGetGames', await api('GET', '/api/edit/games?count=0')) as { length: number };
      assert.equal(empty.length, 0);
    });

    test('answers 404 for an unknown game', async () => {
      assertError('editGetGame', await api('GET', '/api/edit/games/999999'), 404);
      assertError('editUpdateGame', await api('PUT', '/api/edit/games/999999', gameBody()), 404);
      assertError('editDeleteGame', await api('DELETE', '/api/edit/games/999999'), 404);
    });

    test('update replaces every editable field and ignores id, poster and publicKey', async () => {
      const game = await createGame(api);
      const now = Date.now();
      const body = {
        id: 12345,
        title: 'Renamed',
        hidden: true,
        summary: 'summary',
        content: 'content',
        acceptWithoutReview: true,
        writeupRequired: true,
        inviteCode: 'secret',
        divisions: ['  Students ', 'Open'],
        teamMemberCountLimit: 4,
        containerCountLimit: 0,
        poster: '/assets/evil/poster',
        publicKey: 'AAAA',
        practiceMode: false,
        start: now + 1000,
        end: now + 2000,
        writeupDeadline: now + 3000,
        writeupNote: 'note',
        bloodBonus: (100 << 20) + (0 << 10) + 1000,
      };
      const updated = assertOk('editUpdateGame', await api('PUT', `/api/edit/games/${game.id}`, body)) as Record<
        string,
        unknown
      >;
      assert.deepEqual(updated, {
        ...body,
        id: game.id,
        poster: null,
        publicKey: game.publicKey,
        divisions: ['Students', 'Open'],
      });
      assert.deepEqual(await getGame(game.id), updated);

      // A full replace: what is left out goes back to the defaults.
      const reset = assertOk(
        'editUpdateGame',
        await api('PUT', `/api/edit/games/${game.id}`, { title: 'Again', start: now, end: now + 10 }),
      ) as Record<string, unknown>;
      assert.equal(reset.hidden, false);
      assert.equal(reset.practiceMode, true);
      assert.equal(reset.containerCountLimit, 3);
      assert.equal(reset.inviteCode, null);
      assert.equal(reset.divisions, null);
      assert.equal(reset.bloodBonus, DEFAULT_BLOOD_BONUS);
    });

    test('invalid settings are refused with 400 and change nothing', async () => {
      const game = await createGame(api);
      const before = await getGame(game.id);
      const now = Date.now();
      const invalid: Array<[string, Record<string, unknown>]> = [
        ['start after end', { start: now + 10, end: now }],
        ['start equal to end', { start: now, end: now }],
        ['negative time', { start: -5, end: now }],
        ['writeup deadline before the end', { writeupRequired: true, writeupDeadline: now }],
        ['blank title', { title: '   ' }],
        ['empty title', { title: '' }],
        ['blank division', { divisions: ['A', ' '] }],
        ['duplicate division', { divisions: ['A', ' A'] }],
        ['over-long division', { divisions: ['x'.repeat(65)] }],
        ['over-long invite code', { inviteCode: 'x'.repeat(33) }],
        ['negative team limit', { teamMemberCountLimit: -1 }],
        ['negative container limit', { containerCountLimit: -3 }],
        ['first blood over 1000', { bloodBonus: 1001 << 20 }],
        ['third blood over 1000', { bloodBonus: 1023 }],
        ['negative blood bonus', { bloodBonus: -1 }],
        ['blood bonus beyond 30 bits', { bloodBonus: 2 ** 31 }],
        ['missing end', { end: undefined }],
        ['NUL in the content', { content: 'a\u0000b' }],
        ['NUL in a division', { divisions: ['a\u0000'] }],
      ];
      const countBefore = await gameCount();
      for (const [label, overrides] of invalid) {
        const body = gameBody({ start: now, end: now + 1000, ...overrides });
        const created = await api('POST', '/api/edit/games', body);
        assert.equal(created.statusCode, 400, `${label}: ${created.body}`);
        assertError('editAddGame', created, 400);
        const updated = await api('PUT', `/api/edit/games/${game.id}`, body);
        assert.equal(updated.statusCode, 400, `${label}: ${updated.body}`);
        assertError('editUpdateGame', updated, 400);
      }
      assert.equal(await gameCount(), countBefore);
      assert.deepEqual(await getGame(game.id), before);
    });

    test('hostile markdown is stored and returned as given, in valid JSON', async () => {
      const game = await createGame(api, { title: HOSTILE, summary: HOSTILE, content: HOSTILE, writeupNote: HOSTILE });
      const stored = (await getGame(game.id)) as Record<string, unknown>;
      for (const field of ['title', 'summary', 'content', 'writeupNote']) assert.equal(stored[field], HOSTILE);
      const notice = await api('POST', `/api/edit/games/${game.id}/notices`, { content: HOSTILE });
      assert.equal((assertOk('editAddGameNotice', notice) as { values: string[] }).values[0], HOSTILE);
      const listed = assertOk('editGetGameNotices', await api('GET', `/api/edit/games/${game.id}/notices`));
      assert.deepEqual((listed as Array<{ values: string[] }>)[0]!.values, [HOSTILE]);
    });

    test('poster: stored as WebP, served at /assets/{hash}/poster, the previous one released', async () => {
      const game = await createGame(api);
      const upload = (content: Buffer, id = game.id) => {
        const body = multipart([{ field: 'file', filename: 'poster.png', content, contentType: 'image/png' }]);
        return ctx.app.inject({
          method: 'PUT',
          url: `/api/edit/games/${id}/poster`,
          payload: body.payload,
          headers: { ...body.headers, cookie },
        });
      };
      const first = upload(await png(40, 20, '#ff0000'));
      const firstUrl = assertOk('editUpdateGamePoster', await first) as string;
      assert.match(firstUrl, /^\/assets\/[0-9a-f]{64}\/poster$/);
      const firstHash = firstUrl.split('/')[2]!;
      const served = await ctx.app.inject({ method: 'GET', url: firstUrl });
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'image/webp');
      assert.equal(((await getGame(game.id)) as { poster: string }).poster, firstUrl);

      const secondUrl = assertOk('editUpdateGamePoster', await upload(await png(40, 20, '#00ff00'))) as string;
      assert.notEqual(secondUrl, firstUrl);
      assert.equal(await referenceCount(ctx.app.db, firstHash), undefined, 'the old poster is released');
      assert.equal(blobExists(ctx.env.dataDir, firstHash), false);
      assert.equal(((await getGame(game.id)) as { poster: string }).poster, secondUrl);

      assertError('editUpdateGamePoster', await upload(Buffer.from('not an image')), 400);
      assertError('editUpdateGamePoster', await upload(Buffer.alloc(3 * 1024 * 1024 + 1, 1)), 400);
      assertError('editUpdateGamePoster', await upload(await png(), 999999), 404);
      assert.equal(((await getGame(game.id)) as { poster: string }).poster, secondUrl);
    });

    test('notices: create, list (Normal only), edit (time reset), delete', async () => {
      const game = await createGame(api);
      const base = `/api/edit/games/${game.id}/notices`;
      const heard: unknown[] = [];
      const listener = (event: unknown) => heard.push(event);
      bus.on('noticePublished', listener);
      try {
        const created = assertOk('editAddGameNotice', await api('POST', base, { content: 'Hello **players**' })) as {
          id: number;
          type: string;
          values: string[];
          time: number;
        };
        assert.equal(created.type, 'Normal');
        assert.deepEqual(created.values, ['Hello **players**']);
        assert.deepEqual(heard, [{ gameId: game.id, notice: created }]);

        await ctx.app.db.insert(gameNotices).values({ gameId: game.id, type: 'FirstBlood', values: ['team', 'chal'] });
        const [blood] = await ctx.app.db
          .select()
          .from(gameNotices)
          .where(eq(gameNotices.type, 'FirstBlood'))
          .orderBy(gameNotices.id);
        const listed = assertOk('editGetGameNotices', await api('GET', base)) as Array<{ id: number }>;
        assert.deepEqual(
          listed.map((notice) => notice.id),
          [created.id],
        );

        await new Promise((resolve) => setTimeout(resolve, 5));
        const edited = assertOk(
          'editUpdateGameNotice',
          await api('PUT', `${base}/${created.id}`, { content: 'Bye' }),
        ) as {
          values: string[];
          time: number;
        };
        assert.deepEqual(edited.values, ['Bye']);
        assert.ok(edited.time > created.time, 'the publish time moves to now');
        assert.equal(heard.length, 2);

        assertError('editUpdateGameNotice', await api('PUT', `${base}/${blood!.id}`, { content: 'x' }), 400);
        assertError('editDeleteGameNotice', await api('DELETE', `${base}/${blood!.id}`), 400);
        assertError('editUpdateGameNotice', await api('PUT', `${base}/999999`, { content: 'x' }), 404);
        assertError('editAddGameNotice', await api('POST', base, { content: '   ' }), 400);
        assertError('editAddGameNotice', await api('POST', base, { content: '' }), 400);
        assertError('editUpdateGameNotice', await api('PUT', `${base}/${created.id}`, { content: ' ' }), 400);
        assertError('editAddGameNotice', await api('POST', '/api/edit/games/999999/notices', { content: 'x' }), 404);
        assertError('editGetGameNotices', await api('GET', '/api/edit/games/999999/notices'), 404);

        const other = await createGame(api);
        assertError(
          'editUpdateGameNotice',
          await api('PUT', `/api/edit/games/${other.id}/notices/${created.id}`, { content: 'x' }),
          404,
        );

        const deleted = await api('DELETE', `${base}/${created.id}`);
        assert.equal(deleted.statusCode, 200);
        assert.equal(deleted.body, '');
        assertError('editDeleteGameNotice', await api('DELETE', `${base}/${created.id}`), 404);
        const rows = await ctx.app.db.select().from(gameNotices).where(eq(gameNotices.gameId, game.id));
        assert.deepEqual(
          rows.map((row) => row.type),
          ['FirstBlood'],
        );
      } finally {
        bus.off('noticePublished', listener);
      }
    });

    test('a stored response never carries the private key', async () => {
      const game = await createGame(api);
      const body = (await api('GET', `/api/edit/games/${game.id}`)).json<Record<string, unknown>>();
      assert.equal('privateKey' in body, false);
      assertMatchesContract('editGetGame', body);
    });
  });
}
