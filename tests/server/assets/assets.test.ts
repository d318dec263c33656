import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { files } from '../../../server/src/db/schema';
import { blobPath, incomingDir } from '../../../server/src/lib/blobs';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart, type FilePart } from '../helpers/multipart';
import { asUser } from '../helpers/users';

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

for (const engine of engines()) {
  describe(`assets (${engine.name})`, () => {
    let ctx: TestApp;
    let cookie: string;

    before(async () => {
      ctx = await createTestApp(engine);
      ({ cookie } = await asUser(ctx.app, 'Admin'));
    });
    after(async () => ctx.close());

    async function upload(parts: FilePart[], query = '') {
      const body = multipart(parts);
      return ctx.app.inject({
        method: 'POST',
        url: `/api/assets${query}`,
        payload: body.payload,
        headers: { ...body.headers, cookie },
      });
    }

    const fileRow = async (hash: string) => (await ctx.app.db.select().from(files).where(eq(files.hash, hash)))[0];

    test('uploads several files and returns their hashes and names', async () => {
      const response = await upload([
        { field: 'files', filename: 'a.txt', content: 'alpha' },
        { field: 'files', filename: 'b.bin', content: Buffer.from([0, 1, 2, 3]) },
      ]);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assertMatchesContract('assetsUpload', body);
      assert.deepEqual(body, [
        { hash: sha256('alpha'), name: 'a.txt' },
        { hash: sha256(Buffer.from([0, 1, 2, 3])), name: 'b.bin' },
      ]);
      const row = await fileRow(sha256('alpha'));
      assert.equal(row?.size, 5);
      assert.equal(row?.referenceCount, 1);
      assert.equal(fs.readFileSync(blobPath(ctx.env.dataDir, sha256('alpha')), 'utf8'), 'alpha');
      assert.match(
        blobPath(ctx.env.dataDir, sha256('alpha')),
        /files\/uploads\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/,
      );
    });

    test('the filename query renames every upload; directories are dropped from names', async () => {
      const renamed = await upload(
        [
          { field: 'files', filename: 'one.txt', content: 'one' },
          { field: 'files', filename: 'two.txt', content: 'two' },
        ],
        '?filename=attachment.zip',
      );
      assert.equal(renamed.statusCode, 200);
      assert.deepEqual(
        renamed.json().map((file: { name: string }) => file.name),
        ['attachment.zip', 'attachment.zip'],
      );
      const pathy = await upload([{ field: 'files', filename: '../../etc/passwd', content: 'root:x' }]);
      assert.equal(pathy.json()[0].name, 'passwd');
    });

    test('the same content twice is one blob with two references; deleting twice removes it', async () => {
      const content = `dedup ${Date.now()}`;
      const hash = sha256(content);
      await upload([{ field: 'files', filename: 'first.txt', content }]);
      await upload([{ field: 'files', filename: 'second.txt', content }]);
      const row = await fileRow(hash);
      assert.equal(row?.referenceCount, 2);
      assert.equal(row?.name, 'second.txt');
      const dir = blobPath(ctx.env.dataDir, hash).replace(/\/[^/]+$/, '');
      assert.deepEqual(fs.readdirSync(dir), [hash], 'one blob, no temporary files left');

      const first = await ctx.app.inject({ method: 'DELETE', url: `/api/assets/${hash}`, headers: { cookie } });
      assert.equal(first.statusCode, 200);
      assert.equal((await fileRow(hash))?.referenceCount, 1);
      assert.ok(fs.existsSync(blobPath(ctx.env.dataDir, hash)));

      const second = await ctx.app.inject({ method: 'DELETE', url: `/api/assets/${hash}`, headers: { cookie } });
      assert.equal(second.statusCode, 200);
      assert.equal(await fileRow(hash), undefined);
      assert.equal(fs.existsSync(blobPath(ctx.env.dataDir, hash)), false);

      const third = await ctx.app.inject({ method: 'DELETE', url: `/api/assets/${hash}`, headers: { cookie } });
      assert.equal(third.statusCode, 404);
      assert.equal(third.body, '', 'GZCTF answers an unknown hash with an empty 404');
    });

    test('bad uploads and hashes get a 400 {title, status} and store nothing', async () => {
      const before = (await ctx.app.db.select().from(files)).length;
      const noFiles = await upload([{ field: 'other', filename: 'x.txt', content: 'wrong field' }]);
      assert.equal(noFiles.statusCode, 400);
      assertMatchesContract('assetsUpload', noFiles.json(), 400);
      assert.equal(noFiles.json().title, 'No file was uploaded');
      const json = await ctx.app.inject({
        method: 'POST',
        url: '/api/assets',
        payload: { files: 'not a file' },
        headers: { cookie },
      });
      // A JSON body where the contract takes multipart (tests/server/security/strict-body.test.ts).
      assert.equal(json.statusCode, 415);
      assert.equal(json.json().status, 415);
      assert.equal((await ctx.app.db.select().from(files)).length, before);

      const badHash = await ctx.app.inject({ method: 'DELETE', url: '/api/assets/NOT-A-HASH', headers: { cookie } });
      assert.equal(badHash.statusCode, 400);
      assertMatchesContract('assetsDelete', badHash.json(), 400);
    });

    // Up to 32 files of 64 MiB each: received to disk as they arrive and moved into the store, never
    // held whole in memory, and nothing received is left behind, stored or not.
    test('uploads are received to disk and moved into the store; nothing is left behind', async () => {
      const incoming = incomingDir(ctx.env.dataDir);
      const leftovers = () => (fs.existsSync(incoming) ? fs.readdirSync(incoming) : []);
      const big = Buffer.alloc(3 * 1024 * 1024, 7);
      const stored = await upload([
        { field: 'files', filename: 'big.bin', content: big },
        { field: 'files', filename: 'again.bin', content: big },
      ]);
      assert.equal(stored.statusCode, 200, stored.body);
      assert.deepEqual(
        stored.json().map((file: { hash: string }) => file.hash),
        [sha256(big), sha256(big)],
      );
      assert.ok(fs.readFileSync(blobPath(ctx.env.dataDir, sha256(big))).equals(big));
      assert.equal((await fileRow(sha256(big)))?.referenceCount, 2);
      assert.deepEqual(leftovers(), []);

      // A body that ends in the middle of its second file: the first, already received, goes too.
      const rows = (await ctx.app.db.select().from(files)).length;
      const whole = multipart([
        { field: 'files', filename: 'first.bin', content: `first ${Date.now()}` },
        { field: 'files', filename: 'cut.bin', content: Buffer.alloc(256 * 1024, 9) },
      ]);
      const cut = await ctx.app.inject({
        method: 'POST',
        url: '/api/assets',
        payload: whole.payload.subarray(0, whole.payload.length - 100 * 1024),
        headers: { ...whole.headers, cookie },
      });
      assert.equal(cut.statusCode, 400, cut.body);
      assert.equal(cut.json().status, 400);
      assert.equal((await ctx.app.db.select().from(files)).length, rows);
      assert.deepEqual(leftovers(), []);
    });

    test('start-up removes what a crash left of uploads being received, an hour old or more', async () => {
      const env = testEnv();
      const incoming = incomingDir(env.dataDir);
      fs.mkdirSync(incoming, { recursive: true });
      fs.writeFileSync(path.join(incoming, 'crashed.part'), 'half a file');
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      fs.utimesSync(path.join(incoming, 'crashed.part'), twoHoursAgo, twoHoursAgo);
      // Another instance on the same data directory may be receiving this one now.
      fs.writeFileSync(path.join(incoming, 'arriving.part'), 'still coming');
      // A second app on this database (left open for the others): a restart.
      const other = await createTestApp(engine, { env, database: { ...ctx.database, close: async () => {} } });
      try {
        assert.deepEqual(fs.readdirSync(incoming), ['arriving.part']);
      } finally {
        await other.close();
      }
    });

    test('downloads stream the bytes with cache headers, and answer 304 to a matching ETag', async () => {
      const content = 'download me';
      const hash = sha256(content);
      await upload([{ field: 'files', filename: 'notes.txt', content }]);
      const response = await ctx.app.inject({ method: 'GET', url: `/assets/${hash}/notes.txt` });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, content);
      assert.equal(response.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(response.headers['cache-control'], 'public, max-age=604800');
      assert.equal(response.headers.etag, `"${hash.slice(8, 16)}"`);
      assert.ok(!Number.isNaN(Date.parse(response.headers['last-modified'] as string)));
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.match(response.headers['content-disposition'] as string, /^attachment; filename="notes.txt"/);

      const cached = await ctx.app.inject({
        method: 'GET',
        url: `/assets/${hash}/notes.txt`,
        headers: { 'if-none-match': response.headers.etag as string },
      });
      assert.equal(cached.statusCode, 304);
      assert.equal(cached.body, '');

      // The name is not checked against the stored one; it only picks the type.
      const asPng = await ctx.app.inject({ method: 'GET', url: `/assets/${hash}/whatever.png` });
      assert.equal(asPng.statusCode, 200);
      assert.equal(asPng.headers['content-type'], 'image/png');
      const head = await ctx.app.inject({ method: 'HEAD', url: `/assets/${hash}/notes.txt` });
      assert.equal(head.statusCode, 200);
    });

    test('active content (html, svg, js) is served as a text/plain attachment', async () => {
      const html = '<script>alert(document.cookie)</script>';
      const hash = sha256(html);
      await upload([{ field: 'files', filename: 'evil.html', content: html }]);
      for (const name of ['evil.html', 'evil.svg', 'evil.js', 'evil.XHTML', 'evil.xml']) {
        const response = await ctx.app.inject({ method: 'GET', url: `/assets/${hash}/${name}` });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['content-type'], 'text/plain; charset=utf-8', name);
        assert.match(response.headers['content-disposition'] as string, /^attachment; filename="evil\./);
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
      }
      const unknown = await ctx.app.inject({ method: 'GET', url: `/assets/${hash}/data.unknownext` });
      assert.equal(unknown.headers['content-type'], 'application/octet-stream');
      assert.match(unknown.headers['content-disposition'] as string, /^attachment/);
    });

    test('missing files are 404 {title, status}; malformed hashes 400', async () => {
      const missing = await ctx.app.inject({ method: 'GET', url: `/assets/${'0'.repeat(64)}/x.txt` });
      assert.equal(missing.statusCode, 404);
      assertMatchesContract('assetsGetFile', missing.json(), 404);
      assert.deepEqual(missing.json(), { title: 'File not found', status: 404 });
      const malformed = await ctx.app.inject({ method: 'GET', url: '/assets/abc/x.txt' });
      assert.equal(malformed.statusCode, 400);
      assertMatchesContract('assetsGetFile', malformed.json(), 400);
    });

    test('a file still referenced by an attachment survives its last release with a 400', async () => {
      const content = `attached ${Date.now()}`;
      const hash = sha256(content);
      await upload([{ field: 'files', filename: 'chal.zip', content }]);
      const { attachments } = await import('../../../server/src/db/schema');
      await ctx.app.db.insert(attachments).values({ type: 'Local', localFileHash: hash });
      const response = await ctx.app.inject({ method: 'DELETE', url: `/api/assets/${hash}`, headers: { cookie } });
      assert.equal(response.statusCode, 400);
      assertMatchesContract('assetsDelete', response.json(), 400);
      assert.equal((await fileRow(hash))?.referenceCount, 1, 'the release was rolled back');
      assert.ok(fs.existsSync(blobPath(ctx.env.dataDir, hash)));
    });
  });
}
