import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { participations } from '../../../server/src/db/schema';
import { negotiateEncoding, etagMatches } from '../../../server/src/lib/http-caching';
import { storeFile } from '../../../server/src/modules/attachments';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { attachWriteup } from '../edit/support';
import { acceptedPlayer, client, newChallenge, newGame, settle, type Client } from '../game/support';

const BROWSER = 'gzip, deflate, br';

/** The body as the client reads it, whatever coding it came in. */
function decoded(response: LightMyRequestResponse): string {
  const raw = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(raw).toString('utf8');
    case 'gzip':
      return zlib.gunzipSync(raw).toString('utf8');
    case undefined:
      return raw.toString('utf8');
    default:
      throw new Error(`unexpected coding ${String(response.headers['content-encoding'])}`);
  }
}

const varyOf = (response: LightMyRequestResponse) =>
  String(response.headers.vary ?? '')
    .split(',')
    .map((field) => field.trim().toLowerCase());

describe('content-coding negotiation', () => {
  test('picks the best acceptable coding by q-value, the server preferring brotli on ties', () => {
    const offered = ['br', 'gzip'] as const;
    assert.equal(negotiateEncoding(BROWSER, offered), 'br');
    assert.equal(negotiateEncoding('gzip', offered), 'gzip');
    assert.equal(negotiateEncoding('x-gzip', offered), 'gzip');
    assert.equal(negotiateEncoding('br;q=0.5, gzip;q=0.8', offered), 'gzip');
    assert.equal(negotiateEncoding('br;q=0, gzip', offered), 'gzip');
    assert.equal(negotiateEncoding('br;q=0, gzip;q=0', offered), 'identity');
    assert.equal(negotiateEncoding('identity', offered), 'identity');
    assert.equal(negotiateEncoding('*', offered), 'br');
    assert.equal(negotiateEncoding('*;q=0.1, br;q=0', offered), 'gzip');
    assert.equal(negotiateEncoding('', offered), 'identity');
    assert.equal(negotiateEncoding(undefined, offered), 'identity');
    assert.equal(negotiateEncoding('deflate, zstd', offered), 'identity');
  });

  test('If-None-Match compares weakly, lists and * included', () => {
    assert.ok(etagMatches('W/"abc"', '"abc"'));
    assert.ok(etagMatches('"abc"', 'W/"abc"'));
    assert.ok(etagMatches('"x", W/"abc"', 'W/"abc"'));
    assert.ok(etagMatches('*', 'W/"abc"'));
    assert.ok(!etagMatches('"abd"', 'W/"abc"'));
    assert.ok(!etagMatches(undefined, 'W/"abc"'));
  });
});

for (const engine of engines()) {
  describe(`compressed and revalidated answers (${engine.name})`, () => {
    let ctx: TestApp;
    let admin: Client;
    let adminCookie: string;
    let playerCookie: string;
    let gameId: number;
    let postId: string;

    before(async () => {
      ctx = await createTestApp(engine);
      adminCookie = (await asUser(ctx.app, 'Admin')).cookie;
      admin = client(ctx.app, adminCookie);
      const game = await newGame(admin);
      gameId = game.id;
      await newChallenge(admin, gameId, { flags: ['flag{c}'] });
      const player = await acceptedPlayer(ctx.app, gameId);
      playerCookie = player.cookie;
      const notice = await admin('POST', `/api/edit/games/${gameId}/notices`, {
        content: 'Read the rules. '.repeat(10),
      });
      assert.equal(notice.statusCode, 200, notice.body);
      // A post well above the 1 KB threshold, so its answers are compressed.
      const post = await admin('POST', '/api/edit/posts', {
        title: 'Long read',
        summary: 'A summary',
        content: Array.from({ length: 200 }, (_, i) => `Paragraph ${i} of the rules.`).join('\n\n'),
      });
      assert.equal(post.statusCode, 200, post.body);
      postId = post.json<string>();
      await settle(ctx.app);
    });
    after(async () => ctx.close());

    const get = (url: string, headers: Record<string, string> = {}, cookie?: string) =>
      ctx.app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

    test('a large answer goes out in the coding the client prefers, with Vary: Accept-Encoding', async () => {
      const url = `/api/posts/${postId}`;
      const plain = await get(url);
      assert.equal(plain.statusCode, 200);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.ok(plain.rawPayload.length > 1024);
      const cases: [string, string | undefined][] = [
        [BROWSER, 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['br;q=0.2, gzip;q=0.9', 'gzip'],
        ['br;q=0, gzip;q=0', undefined],
        ['identity', undefined],
      ];
      for (const [accept, coding] of cases) {
        const response = await get(url, { 'accept-encoding': accept });
        assert.equal(response.statusCode, 200, accept);
        assert.equal(response.headers['content-encoding'], coding, accept);
        assert.equal(decoded(response), plain.body, accept);
        assert.ok(varyOf(response).includes('accept-encoding'), accept);
        if (coding) assert.ok(response.rawPayload.length < plain.rawPayload.length, accept);
      }
    });

    test('small answers go out as they are', async () => {
      const response = await get('/api/config', { 'accept-encoding': BROWSER });
      assert.equal(response.statusCode, 200);
      assert.ok(response.rawPayload.length < 1024);
      assert.equal(response.headers['content-encoding'], undefined);
      // It could grow past the threshold, so caches still learn that it depends on the coding.
      assert.ok(varyOf(response).includes('accept-encoding'));
    });

    test('every cached GET has an ETag, the right Cache-Control and Vary, and a 304 when unchanged', async () => {
      const routes: { url: string; cookie?: string; scope: 'public' | 'private' }[] = [
        { url: '/api/config', scope: 'public' },
        { url: '/api/posts', scope: 'public' },
        { url: '/api/posts/latest', scope: 'public' },
        { url: `/api/posts/${postId}`, scope: 'public' },
        { url: '/api/game?count=10&skip=0', scope: 'public' },
        { url: '/api/game/recent', scope: 'public' },
        { url: `/api/game/${gameId}`, cookie: playerCookie, scope: 'private' },
        { url: `/api/game/${gameId}/details`, cookie: playerCookie, scope: 'private' },
        { url: `/api/game/${gameId}/notices`, cookie: playerCookie, scope: 'private' },
        { url: `/api/game/${gameId}/scoreboard`, cookie: playerCookie, scope: 'private' },
      ];
      for (const { url, cookie, scope } of routes) {
        const first = await get(url, { 'accept-encoding': BROWSER }, cookie);
        assert.equal(first.statusCode, 200, `${url}: ${first.body}`);
        const etag = first.headers.etag;
        assert.match(String(etag), /^W\/"[\w-]+"$/, url);
        assert.equal(first.headers['cache-control'], `${scope}, no-cache`, url);
        assert.ok(varyOf(first).includes('accept-encoding'), url);
        assert.equal(varyOf(first).includes('cookie'), scope === 'private', url);

        const again = await get(url, { 'accept-encoding': BROWSER, 'if-none-match': String(etag) }, cookie);
        assert.equal(again.statusCode, 304, url);
        assert.equal(again.rawPayload.length, 0, url);
        assert.equal(again.headers['content-encoding'], undefined, url);
        // No body, so nothing describing one: a 304's Content-Length may only be the 200's (RFC 9110 §8.6).
        assert.equal(again.headers['content-length'], undefined, url);
        assert.equal(again.headers['content-type'], undefined, url);
        assert.equal(again.headers.etag, etag, url);
        assert.equal(again.headers['cache-control'], `${scope}, no-cache`, url);

        const stale = await get(url, { 'accept-encoding': BROWSER, 'if-none-match': 'W/"other"' }, cookie);
        assert.equal(stale.statusCode, 200, url);
      }
    });

    test("a team's details: gzip made from the board's shared start, the same text in every coding, a new ETag after a solve", async () => {
      // A game of its own, with enough challenges for its details to pass the 1 KB threshold.
      const game = await newGame(admin);
      const flags = new Map<number, string>();
      for (let n = 0; n < 6; n += 1) {
        flags.set((await newChallenge(admin, game.id, { flags: [`flag{d${n}}`] })).id, `flag{d${n}}`);
      }
      const player = await acceptedPlayer(ctx.app, game.id);
      const other = await acceptedPlayer(ctx.app, game.id);
      await settle(ctx.app);
      const url = `/api/game/${game.id}/details`;
      const plain = await get(url, {}, player.cookie);
      assert.equal(plain.statusCode, 200, plain.body);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.ok(plain.rawPayload.length > 1024, String(plain.rawPayload.length));
      const model = plain.json<{ challengeCount: number; rank: { solvedCount: number }; teamToken: string }>();
      assert.equal(model.challengeCount, 6);
      const answers = await Promise.all(
        [BROWSER, 'gzip', 'br', 'br;q=1, gzip;q=0.5', 'identity'].map((accept) =>
          get(url, { 'accept-encoding': accept }, player.cookie),
        ),
      );
      // gzip whenever the client takes it (only the team's own part is compressed per request); a
      // client taking brotli alone gets it from the compression plugin.
      assert.deepEqual(
        answers.map((answer) => answer.headers['content-encoding']),
        ['gzip', 'gzip', 'br', 'gzip', undefined],
      );
      for (const answer of answers) {
        assert.equal(decoded(answer), plain.body);
        assert.equal(answer.headers.etag, plain.headers.etag);
        assert.match(String(answer.headers['content-type']), /^application\/json/);
      }

      // Another team's details share the board's part and differ in their own.
      const theirs = await get(url, { 'accept-encoding': BROWSER }, other.cookie);
      assert.notEqual(theirs.headers.etag, plain.headers.etag);
      assert.notEqual(JSON.parse(decoded(theirs)).teamToken, model.teamToken);
      assert.deepEqual(JSON.parse(decoded(theirs)).challenges, plain.json<{ challenges: unknown }>().challenges);

      // A solve changes the board, so the details' ETag and rank follow it.
      const [challenge] = Object.values(
        plain.json<{ challenges: Record<string, { id: number }[]> }>().challenges,
      ).flat();
      const solved = await client(ctx.app, player.cookie)('POST', `/api/game/${game.id}/challenges/${challenge!.id}`, {
        flag: flags.get(challenge!.id),
      });
      assert.equal(solved.statusCode, 200, solved.body);
      await settle(ctx.app);
      const after = await get(
        url,
        { 'accept-encoding': BROWSER, 'if-none-match': String(plain.headers.etag) },
        player.cookie,
      );
      assert.equal(after.statusCode, 200);
      assert.notEqual(after.headers.etag, plain.headers.etag);
      assert.equal(JSON.parse(decoded(after)).rank.solvedCount, model.rank.solvedCount + 1);
    });

    test('the scoreboard is compressed once per board, whichever coding and however often it is asked', async () => {
      const url = `/api/game/${gameId}/scoreboard`;
      // A board this process has not sent yet.
      ctx.app.scoreboards.refresh(gameId, true);
      await settle(ctx.app);
      const brotli = mock.method(zlib, 'brotliCompress');
      const gzip = mock.method(zlib, 'gzip');
      try {
        const plain = await get(url);
        assert.equal(plain.headers['content-encoding'], undefined);
        const answers = await Promise.all(
          ['br', 'gzip', BROWSER, 'gzip;q=1, br;q=0.5', 'br'].map((accept) => get(url, { 'accept-encoding': accept })),
        );
        const [br, gz, browser, preferGzip, brAgain] = answers;
        assert.deepEqual(
          answers.map((answer) => answer.headers['content-encoding']),
          ['br', 'gzip', 'br', 'gzip', 'br'],
        );
        for (const answer of answers) {
          assert.equal(decoded(answer), plain.body);
          assert.equal(answer.headers.etag, plain.headers.etag);
          assert.match(String(answer.headers['content-type']), /^application\/json/);
        }
        assert.deepEqual(br!.rawPayload, brAgain!.rawPayload);
        assert.deepEqual(browser!.rawPayload, br!.rawPayload);
        assert.deepEqual(preferGzip!.rawPayload, gz!.rawPayload);
        assert.equal(brotli.mock.callCount(), 1, 'brotli ran once for this board');
        assert.equal(gzip.mock.callCount(), 1, 'gzip ran once for this board');
      } finally {
        brotli.mock.restore();
        gzip.mock.restore();
      }
    });

    test('stored files are sent as they are, however compressible', async () => {
      const text = Buffer.from('all work and no play '.repeat(500));
      const stored = await storeFile(ctx.app.db, ctx.env.dataDir, { buffer: text, name: 'notes.txt' });
      const response = await get(`/assets/${stored.hash}/notes.txt`, { 'accept-encoding': BROWSER });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-encoding'], undefined);
      assert.equal(response.rawPayload.length, text.length);
    });

    test('file downloads go out as they are', async () => {
      const [participation] = await ctx.app.db
        .select({ id: participations.id })
        .from(participations)
        .where(eq(participations.gameId, gameId));
      await attachWriteup(ctx.app.db, ctx.env.dataDir, participation!.id, '%PDF '.repeat(2000), new Date());
      const response = await admin('GET', `/api/admin/writeups/${gameId}/all`);
      const compressible = await ctx.app.inject({
        method: 'GET',
        url: `/api/admin/writeups/${gameId}/all`,
        headers: { cookie: adminCookie, 'accept-encoding': BROWSER },
      });
      assert.equal(compressible.statusCode, 200);
      assert.equal(compressible.headers['content-type'], 'application/x-tar');
      assert.equal(compressible.headers['content-encoding'], undefined);
      assert.deepEqual(compressible.rawPayload, response.rawPayload);
    });

    test('a compressed request body is not inflated', async () => {
      const body = zlib.gzipSync(JSON.stringify({ userName: 'nobody', password: 'Passw0rd' }));
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: body,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      assert.ok(response.statusCode >= 400 && response.statusCode < 500, `${response.statusCode}`);
      assert.equal(response.json<{ status: number }>().status, response.statusCode);
    });
  });
}
