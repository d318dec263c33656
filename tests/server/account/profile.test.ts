import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { files, sessions } from '../../../server/src/db/schema';
import { blobExists, blobPath } from '../../../server/src/lib/blobs';
import { engines } from '../helpers/database';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { multipart } from '../helpers/multipart';
import { asUser, createUser, signIn, uniqueName } from '../helpers/users';
import { userRow } from './support';

const png = (width: number, height: number, colour = '#3366ff') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

for (const engine of engines()) {
  describe(`profile and password (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    const update = (cookie: string, payload: unknown, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/account/update',
        headers: { cookie, ...headers },
        payload: payload as object,
      });

    test('profile returns the ProfileUserInfoModel of the signed-in user', async () => {
      const { user, cookie } = await asUser(ctx.app, 'Monitor');
      const response = await ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      assert.equal(response.statusCode, 200);
      assertMatchesContract('accountProfile', response.json());
      assert.deepEqual(response.json(), {
        userId: user.id,
        userName: user.userName,
        email: user.email,
        bio: '',
        phone: null,
        realName: '',
        stdNumber: '',
        avatar: null,
        role: 'Monitor',
      });
    });

    test('update changes the given fields and leaves null or missing ones alone', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const bystander = await createUser(ctx.app);
      let response = await update(cookie, {
        bio: 'pwn & web',
        realName: 'Ada',
        stdNumber: 'S-42',
        phone: '+1 (555) 010-9999',
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      const newName = uniqueName('n');
      response = await update(cookie, { userName: newName, bio: null, realName: null });
      assert.equal(response.statusCode, 200);
      const row = (await userRow(ctx.app, user.id))!;
      assert.equal(row.userName, newName);
      assert.equal(row.bio, 'pwn & web');
      assert.equal(row.realName, 'Ada');
      assert.equal(row.stdNumber, 'S-42');
      assert.equal(row.phone, '+1 (555) 010-9999');
      const profile = await ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      assert.equal(profile.json().userName, newName);
      // Only the signed-in user's row changed: there is no way to name another user.
      const other = (await userRow(ctx.app, bystander.id))!;
      assert.equal(other.bio, '');
      assert.equal(other.userName, bystander.userName);
    });

    test('update refuses bad input and changes nothing', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const taken = await createUser(ctx.app);
      const before = await userRow(ctx.app, user.id);
      const cases: Array<[unknown, string | RegExp, string?]> = [
        [
          { userName: taken.userName.toUpperCase(), bio: 'changed' },
          `The user name ${taken.userName.toUpperCase()} is already taken`,
        ],
        [{ userName: 'ab' }, 'userName must be at least 3 characters long'],
        [{ userName: 'x'.repeat(16) }, 'userName must be at most 15 characters long'],
        [{ bio: 'b'.repeat(129) }, 'bio must be at most 128 characters long'],
        [{ realName: 'r'.repeat(129) }, 'realName must be at most 128 characters long'],
        [{ stdNumber: 's'.repeat(65) }, 'stdNumber must be at most 64 characters long'],
        [{ bio: { text: 'x' } }, /bio/],
        [{ phone: 'call me maybe' }, 'The phone number is invalid'],
        [{ phone: 'call me maybe' }, '電話番号が無効です', 'ja-JP'],
        [{ phone: '+1 555 0100 ext' }, 'The phone number is invalid'],
        [{ phone: `+${'1'.repeat(64)}` }, 'The phone number is invalid'],
        // Answered at once: an earlier pattern took time growing with the square of such a length.
        [{ phone: `${'1'.repeat(200_000)}a` }, 'The phone number is invalid'],
      ];
      for (const [payload, title, language] of cases) {
        const response = await update(cookie, payload, language ? { 'accept-language': language } : {});
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assertMatchesContract('accountUpdate', response.json(), 400);
        if (typeof title === 'string') assert.equal(response.json().title, title);
        else assert.match(response.json().title, title);
      }
      assert.deepEqual(await userRow(ctx.app, user.id), before);
    });

    test('change password: the old one must match and the new one follow the rules', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const otherBrowser = await signIn(ctx.app, user.userName, user.password);
      const change = (payload: unknown, headers: Record<string, string> = {}) =>
        ctx.app.inject({
          method: 'PUT',
          url: '/api/account/changepassword',
          headers: { cookie, ...headers },
          payload: payload as object,
        });
      const before = (await userRow(ctx.app, user.id))!.passwordHash;

      const wrongOld = await change({ old: 'Wr0ngOld', new: 'N3wPassword' });
      assert.equal(wrongOld.statusCode, 400);
      assertMatchesContract('accountChangePassword', wrongOld.json(), 400);
      assert.equal(wrongOld.json().title, 'The current password is incorrect');
      const weak = await change({ old: user.password, new: 'newpassword' }, { 'accept-language': 'fr-FR' });
      assert.equal(weak.statusCode, 400);
      assert.equal(weak.json().title, "Les mots de passe doivent contenir au moins un chiffre ('0'-'9')");
      const short = await change({ old: user.password, new: 'N3w' });
      assert.equal(short.statusCode, 400);
      assert.equal(short.json().title, 'new must be at least 6 characters long');
      const missing = await change({ old: user.password });
      assert.equal(missing.statusCode, 400);
      assert.equal((await userRow(ctx.app, user.id))!.passwordHash, before, 'unchanged after refusals');

      const ok = await change({ old: user.password, new: 'N3wPassword' });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.body, '');
      // This browser stays signed in; every other session of the user ends.
      const mine = await ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      assert.equal(mine.statusCode, 200);
      const theirs = await ctx.app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { cookie: otherBrowser },
      });
      assert.equal(theirs.statusCode, 401);
      assert.equal((await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).length, 1);

      await assert.rejects(signIn(ctx.app, user.userName, user.password), /401/);
      await signIn(ctx.app, user.userName, 'N3wPassword');
    });
  });

  describe(`avatar (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    const upload = (cookie: string | undefined, parts: Parameters<typeof multipart>[0]) => {
      const body = multipart(parts);
      return ctx.app.inject({
        method: 'PUT',
        url: '/api/account/avatar',
        headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
        payload: body.payload,
      });
    };
    const fileRows = () => ctx.app.db.select().from(files);

    test('an image becomes a 300 px wide WebP, stored by content hash and shown in the profile', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const response = await upload(cookie, [
        { field: 'file', filename: 'me.png', content: await png(600, 400), contentType: 'image/png' },
      ]);
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.headers['content-type'] as string, /^application\/json/);
      const url = response.json() as string;
      assertMatchesContract('accountAvatar', url);
      const hash = /^\/assets\/([0-9a-f]{64})\/avatar$/.exec(url)?.[1];
      assert.ok(hash, url);

      const stored = fs.readFileSync(blobPath(ctx.env.dataDir, hash));
      const metadata = await sharp(stored).metadata();
      assert.equal(metadata.format, 'webp');
      assert.equal(metadata.width, 300);
      assert.equal(metadata.height, 200);
      const [row] = await ctx.app.db.select().from(files).where(eq(files.hash, hash));
      assert.equal(row?.referenceCount, 1);
      assert.equal((await userRow(ctx.app, user.id))!.avatarHash, hash);
      const profile = await ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: { cookie } });
      assert.equal(profile.json().avatar, url);
    });

    test('a new avatar releases the old one; the same picture twice keeps one reference', async () => {
      const { cookie } = await asUser(ctx.app);
      const first = (
        await upload(cookie, [{ field: 'file', filename: 'a.png', content: await png(320, 320, '#ff0000') }])
      ).json() as string;
      const firstHash = first.split('/')[2]!;
      const again = (
        await upload(cookie, [{ field: 'file', filename: 'a.png', content: await png(320, 320, '#ff0000') }])
      ).json() as string;
      assert.equal(again, first);
      const [row] = await ctx.app.db.select().from(files).where(eq(files.hash, firstHash));
      assert.equal(row?.referenceCount, 1);

      const second = (
        await upload(cookie, [
          {
            field: 'file',
            filename: 'b.gif',
            content: await sharp({ create: { width: 40, height: 40, channels: 3, background: '#00ff00' } })
              .gif()
              .toBuffer(),
          },
        ])
      ).json() as string;
      assert.notEqual(second, first);
      assert.equal((await ctx.app.db.select().from(files).where(eq(files.hash, firstHash))).length, 0);
      assert.equal(blobExists(ctx.env.dataDir, firstHash), false, 'the unreferenced blob is gone');
      assert.equal(blobExists(ctx.env.dataDir, second.split('/')[2]!), true);
    });

    if (engine.name === 'postgres') {
      test('uploads at once each release the old avatar once: a shared picture keeps its other holder, nothing is orphaned', async () => {
        const shared = await png(64, 64, '#336699');
        const holder = await asUser(ctx.app);
        const { user, cookie } = await asUser(ctx.app);
        const sharedHash = (
          (await upload(holder.cookie, [{ field: 'file', filename: 's.png', content: shared }])).json() as string
        ).split('/')[2]!;
        await upload(cookie, [{ field: 'file', filename: 's.png', content: shared }]);
        const pictures = await Promise.all(
          ['#aa0000', '#00aa00', '#0000aa', '#aaaa00', '#00aaaa', '#aa00aa'].map((colour) => png(64, 64, colour)),
        );
        const answers = await Promise.all(
          pictures.map((content) => upload(cookie, [{ field: 'file', filename: 'n.png', content }])),
        );
        for (const answer of answers) assert.equal(answer.statusCode, 200, answer.body);
        const current = (await userRow(ctx.app, user.id))!.avatarHash!;
        const [kept] = await ctx.app.db.select().from(files).where(eq(files.hash, sharedHash));
        assert.equal(kept?.referenceCount, 1, 'the other holder still holds the shared picture');
        assert.equal((await userRow(ctx.app, holder.user.id))!.avatarHash, sharedHash);
        assert.equal(blobExists(ctx.env.dataDir, sharedHash), true);
        const uploaded = answers.map((answer) => (answer.json() as string).split('/')[2]!);
        const left = (await fileRows()).filter((row) => uploaded.includes(row.hash));
        assert.deepEqual(
          left.map((row) => [row.hash, row.referenceCount]),
          [[current, 1]],
          'only the avatar in use is left',
        );
      });
    }

    test('JPEG and WebP are accepted too', async () => {
      const { cookie } = await asUser(ctx.app);
      for (const content of [
        await sharp({ create: { width: 50, height: 50, channels: 3, background: '#123456' } })
          .jpeg()
          .toBuffer(),
        await sharp({ create: { width: 50, height: 50, channels: 3, background: '#654321' } })
          .webp()
          .toBuffer(),
      ]) {
        const response = await upload(cookie, [{ field: 'file', filename: 'x', content }]);
        assert.equal(response.statusCode, 200, response.body);
      }
    });

    test('of a form with more files (other fields, more in the field), the first in the field is the one kept', async () => {
      const { cookie } = await asUser(ctx.app);
      const response = await upload(cookie, [
        { field: 'other', filename: 'skip.png', content: await png(40, 40, '#ff0000') },
        { field: 'file', filename: 'me.png', content: await png(600, 400) },
        { field: 'file', filename: 'second.png', content: await png(40, 40, '#00ff00') },
        { field: 'file', filename: 'third.bin', content: Buffer.alloc(1024 * 1024) },
      ]);
      assert.equal(response.statusCode, 200, response.body);
      const hash = (response.json() as string).split('/')[2]!;
      const metadata = await sharp(fs.readFileSync(blobPath(ctx.env.dataDir, hash))).metadata();
      assert.deepEqual([metadata.width, metadata.height], [300, 200]);
    });

    test('non-images, oversized files and missing files are refused with nothing stored', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const before = { files: (await fileRows()).length, avatar: (await userRow(ctx.app, user.id))!.avatarHash };
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
      const big = Buffer.concat([await png(10, 10), Buffer.alloc(3 * 1024 * 1024)]);
      const cases: Array<[Parameters<typeof multipart>[0], number]> = [
        [[{ field: 'file', filename: 'x.png', content: 'just some text', contentType: 'image/png' }], 400],
        [[{ field: 'file', filename: 'doc.pdf', content: pdf, contentType: 'application/pdf' }], 400],
        [[{ field: 'file', filename: 'x.svg', content: svg, contentType: 'image/svg+xml' }], 400],
        [[{ field: 'file', filename: 'empty.png', content: Buffer.alloc(0) }], 400],
        [[{ field: 'file', filename: 'big.png', content: big }], 400],
        [[{ field: 'other', filename: 'x.png', content: await png(10, 10) }], 400],
        [[], 400],
      ];
      for (const [parts, status] of cases) {
        const response = await upload(cookie, parts);
        assert.equal(response.statusCode, status, `${parts[0]?.filename}: ${response.body}`);
        assertMatchesContract('accountAvatar', response.json(), status);
        assert.equal(response.json().status, status);
      }
      const json = await ctx.app.inject({
        method: 'PUT',
        url: '/api/account/avatar',
        headers: { cookie },
        payload: { file: 'x' },
      });
      // A JSON body where the contract takes multipart (tests/server/security/strict-body.test.ts).
      assert.equal(json.statusCode, 415);
      assert.deepEqual(
        { files: (await fileRows()).length, avatar: (await userRow(ctx.app, user.id))!.avatarHash },
        before,
      );
    });

    test('signed out or banned users cannot upload', async () => {
      const content = await png(10, 10);
      assert.equal((await upload(undefined, [{ field: 'file', filename: 'x.png', content }])).statusCode, 401);
      const { cookie } = await asUser(ctx.app, 'Banned');
      assert.equal((await upload(cookie, [{ field: 'file', filename: 'x.png', content }])).statusCode, 403);
    });
  });
}
