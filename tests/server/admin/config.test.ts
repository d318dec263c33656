import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { config, files } from '../../../server/src/db/schema';
import { blobPath } from '../../../server/src/lib/blobs';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';

const png = (width: number, height: number, colour = '#336699') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

const fullConfig = () => ({
  accountPolicy: {
    allowRegister: false,
    activeOnRegister: false,
    useCaptcha: false,
    emailConfirmationRequired: true,
    emailDomainList: 'example.com,example.org',
  },
  globalConfig: {
    title: 'Night',
    slogan: 'Capture all the flags',
    description: 'A night of hacking',
    footerInfo: '**footer**',
    customTheme: '#ff0000',
    apiEncryption: false,
    logoHash: 'f'.repeat(64),
    faviconHash: 'e'.repeat(64),
  },
  containerPolicy: {
    autoDestroyOnLimitReached: true,
    maxExerciseContainerCountPerUser: 2,
    defaultLifetime: 60,
    extensionDuration: 30,
    renewalWindow: 5,
  },
});

for (const engine of engines()) {
  describe(`admin config and logo (${engine.name})`, () => {
    let ctx: TestApp;
    let cookie: string;

    before(async () => {
      ctx = await createTestApp(engine);
      ({ cookie } = await asUser(ctx.app, 'Admin'));
    });
    after(async () => ctx.close());

    const getConfig = async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/admin/config', headers: { cookie } });
      assert.equal(response.statusCode, 200);
      assertMatchesContract('adminGetConfigs', response.json());
      return response.json();
    };
    const putConfig = (payload: unknown) =>
      ctx.app.inject({ method: 'PUT', url: '/api/admin/config', payload: payload as object, headers: { cookie } });
    const uploadLogo = (content: Buffer | string, filename = 'logo.png', field = 'file') => {
      const body = multipart([{ field, filename, content, contentType: 'image/png' }]);
      return ctx.app.inject({
        method: 'POST',
        url: '/api/admin/config/logo',
        payload: body.payload,
        headers: { ...body.headers, cookie },
      });
    };
    const configRows = async () => (await ctx.app.db.select().from(config)).length;

    test('GET answers the defaults on a fresh database', async () => {
      const body = await getConfig();
      assert.deepEqual(body.accountPolicy, {
        allowRegister: true,
        activeOnRegister: true,
        useCaptcha: false,
        emailConfirmationRequired: false,
        emailDomainList: '',
      });
      assert.equal(body.globalConfig.title, 'GZ');
      assert.equal(body.globalConfig.logoHash, null);
      assert.equal(body.containerPolicy.defaultLifetime, 120);
    });

    test('PUT saves every section but never the logo hashes', async () => {
      const response = await putConfig(fullConfig());
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.body, '');
      const body = await getConfig();
      const expected = fullConfig();
      assert.deepEqual(body.accountPolicy, expected.accountPolicy);
      assert.deepEqual(body.containerPolicy, expected.containerPolicy);
      assert.equal(body.globalConfig.title, 'Night');
      assert.equal(body.globalConfig.footerInfo, '**footer**');
      assert.equal(body.globalConfig.logoHash, null);
      assert.equal(body.globalConfig.faviconHash, null);
      const publicConfig = (await ctx.app.inject({ method: 'GET', url: '/api/config' })).json();
      assert.equal(publicConfig.title, 'Night');
      assert.equal(publicConfig.defaultLifetime, 60);
    });

    test('a null or missing section is left as it is', async () => {
      const response = await putConfig({
        accountPolicy: null,
        containerPolicy: { ...fullConfig().containerPolicy, renewalWindow: 7 },
      });
      assert.equal(response.statusCode, 200);
      const body = await getConfig();
      assert.equal(body.accountPolicy.allowRegister, false, 'unchanged');
      assert.equal(body.globalConfig.title, 'Night', 'unchanged');
      assert.equal(body.containerPolicy.renewalWindow, 7);
    });

    test('out-of-range and ill-typed values are refused and nothing is saved', async () => {
      const before = await configRows();
      const snapshot = await getConfig();
      const bad = [
        { containerPolicy: { ...fullConfig().containerPolicy, defaultLifetime: 0 } },
        { containerPolicy: { ...fullConfig().containerPolicy, extensionDuration: 7201 } },
        { containerPolicy: { ...fullConfig().containerPolicy, renewalWindow: 361 } },
        { containerPolicy: { ...fullConfig().containerPolicy, defaultLifetime: 'long' } },
        { accountPolicy: { allowRegister: true } },
        { globalConfig: { ...fullConfig().globalConfig, title: { text: 'x' } } },
        { accountPolicy: { ...fullConfig().accountPolicy, useCaptcha: 'sometimes' } },
      ];
      for (const payload of bad) {
        const response = await putConfig(payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assertMatchesContract('adminUpdateConfigs', response.json(), 400);
      }
      const limit = await putConfig(bad[1]);
      assert.match(limit.json().title, /extensionDuration must be at most 7200/);
      assert.equal(await configRows(), before);
      assert.deepEqual(await getConfig(), snapshot);
    });

    test('a logo upload stores a 640 px WebP logo and a 256 px favicon', async () => {
      const response = await uploadLogo(await png(1000, 500));
      assert.equal(response.statusCode, 200, response.body);
      const { globalConfig } = await getConfig();
      assert.match(globalConfig.logoHash, /^[0-9a-f]{64}$/);
      assert.match(globalConfig.faviconHash, /^[0-9a-f]{64}$/);
      const logo = await sharp(fs.readFileSync(blobPath(ctx.env.dataDir, globalConfig.logoHash))).metadata();
      assert.equal(logo.format, 'webp');
      assert.equal(logo.width, 640);
      assert.equal(logo.height, 320);
      const favicon = await sharp(fs.readFileSync(blobPath(ctx.env.dataDir, globalConfig.faviconHash))).metadata();
      assert.equal(favicon.width, 256);
      const publicConfig = (await ctx.app.inject({ method: 'GET', url: '/api/config' })).json();
      assert.equal(publicConfig.logoUrl, `/assets/${globalConfig.logoHash}/logo`);
      const served = await ctx.app.inject({ method: 'GET', url: publicConfig.logoUrl });
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'image/webp', 'sniffed: the logo URL has no extension');

      const icon = await ctx.app.inject({ method: 'GET', url: '/favicon.webp' });
      assert.equal(icon.statusCode, 200);
      assert.equal(icon.headers['content-type'], 'image/webp');
      assert.equal((await sharp(icon.rawPayload).metadata()).width, 256);
    });

    test('a new logo releases the previous files', async () => {
      const previous = (await getConfig()).globalConfig;
      const response = await uploadLogo(await png(300, 300, '#00ff00'));
      assert.equal(response.statusCode, 200);
      const current = (await getConfig()).globalConfig;
      assert.notEqual(current.logoHash, previous.logoHash);
      for (const hash of [previous.logoHash, previous.faviconHash]) {
        assert.equal((await ctx.app.db.select().from(files).where(eq(files.hash, hash))).length, 0);
        assert.equal(fs.existsSync(blobPath(ctx.env.dataDir, hash)), false);
      }
      // The same picture again keeps exactly one reference per file.
      await uploadLogo(await png(300, 300, '#00ff00'));
      const [row] = await ctx.app.db.select().from(files).where(eq(files.hash, current.logoHash));
      assert.equal(row?.referenceCount, 1);
    });

    test('non-images, empty and over-large files are refused and the logo is unchanged', async () => {
      const before = (await getConfig()).globalConfig;
      const fileCount = (await ctx.app.db.select().from(files)).length;
      const attempts = [
        await uploadLogo('this is just text, not a picture', 'logo.png'),
        await uploadLogo(Buffer.alloc(0), 'empty.png'),
        await uploadLogo('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', 'logo.svg'),
        await uploadLogo(Buffer.alloc(3 * 1024 * 1024 + 10, 1), 'huge.png'),
        await uploadLogo(await png(10, 10), 'logo.png', 'wrongfield'),
      ];
      for (const response of attempts) {
        assert.equal(response.statusCode, 400, response.body);
        assertMatchesContract('adminUpdateLogo', response.json(), 400);
      }
      assert.match(attempts[0]!.json().title, /not a supported image/);
      assert.match(attempts[3]!.json().title, /3 MiB/);
      assert.deepEqual((await getConfig()).globalConfig, before);
      assert.equal((await ctx.app.db.select().from(files)).length, fileCount);
    });

    test('resetting the logo clears the hashes, releases the files and restores the default favicon', async () => {
      const before = (await getConfig()).globalConfig;
      const response = await ctx.app.inject({ method: 'DELETE', url: '/api/admin/config/logo', headers: { cookie } });
      assert.equal(response.statusCode, 200);
      const after = (await getConfig()).globalConfig;
      assert.equal(after.logoHash, null);
      assert.equal(after.faviconHash, null);
      assert.equal((await ctx.app.db.select().from(files).where(eq(files.hash, before.logoHash))).length, 0);
      assert.equal((await ctx.app.inject({ method: 'GET', url: '/api/config' })).json().logoUrl, null);

      const icon = await ctx.app.inject({ method: 'GET', url: '/favicon.webp' });
      assert.equal(icon.statusCode, 200);
      assert.equal(icon.headers['content-type'], 'image/webp');
      assert.equal((await sharp(icon.rawPayload).metadata()).format, 'webp');
      const cached = await ctx.app.inject({
        method: 'GET',
        url: '/favicon.webp',
        headers: { 'if-none-match': icon.headers.etag as string },
      });
      assert.equal(cached.statusCode, 304);
    });

    test('concurrent logo changes release each previous file once and leave no file unreferenced', async () => {
      assert.equal((await uploadLogo(await png(400, 200, '#aa0000'))).statusCode, 200);
      const first = (await getConfig()).globalConfig;
      // The same bytes as an asset too (a post links them): the logo's file now has two references.
      const asset = multipart([
        { field: 'files', filename: 'logo.webp', content: fs.readFileSync(blobPath(ctx.env.dataDir, first.logoHash)) },
      ]);
      const stored = await ctx.app.inject({
        method: 'POST',
        url: '/api/assets',
        payload: asset.payload,
        headers: { ...asset.headers, cookie },
      });
      assert.equal(stored.statusCode, 200, stored.body);
      const referenceCount = async (hash: string) =>
        (await ctx.app.db.select().from(files).where(eq(files.hash, hash)))[0]?.referenceCount;
      assert.equal(await referenceCount(first.logoHash), 2);

      const [upload, reset, other] = await Promise.all([
        png(410, 200, '#00aa00').then(uploadLogo),
        ctx.app.inject({ method: 'DELETE', url: '/api/admin/config/logo', headers: { cookie } }),
        png(420, 200, '#0000aa').then(uploadLogo),
      ]);
      for (const response of [upload, reset, other]) assert.equal(response.statusCode, 200, response.body);

      assert.equal(await referenceCount(first.logoHash), 1, 'only the logo’s own reference was dropped');
      assert.equal(await referenceCount(first.faviconHash), undefined);
      // Whatever order they ran in, every remaining file is the asset or the current logo's, each
      // referenced once.
      const current = (await getConfig()).globalConfig;
      const expected = [first.logoHash, current.logoHash, current.faviconHash].filter(Boolean).sort();
      const rows = await ctx.app.db.select().from(files);
      assert.deepEqual(
        rows
          .filter((row) => row.name === 'logo' || row.name === 'favicon' || row.hash === first.logoHash)
          .map((row) => [row.hash, row.referenceCount])
          .sort(),
        expected.map((hash) => [hash, 1]),
      );
    });
  });
}

const postgres = engines().find((engine) => engine.name === 'postgres');
if (postgres) {
  describe('admin config saved concurrently (postgres)', () => {
    let ctx: TestApp;
    let cookie: string;

    before(async () => {
      ctx = await createTestApp(postgres);
      ({ cookie } = await asUser(ctx.app, 'Admin'));
    });
    after(async () => ctx.close());

    test('two admins saving the settings page at once both succeed, and one of them wins whole', async () => {
      for (let round = 0; round < 10; round++) {
        const titles = [`First ${round}`, `Second ${round}`];
        const responses = await Promise.all(
          titles.map((title) =>
            ctx.app.inject({
              method: 'PUT',
              url: '/api/admin/config',
              payload: { ...fullConfig(), globalConfig: { ...fullConfig().globalConfig, title } },
              headers: { cookie },
            }),
          ),
        );
        for (const response of responses) assert.equal(response.statusCode, 200, `round ${round}: ${response.body}`);
        const saved = (await ctx.app.inject({ method: 'GET', url: '/api/admin/config', headers: { cookie } })).json();
        assert.ok(titles.includes(saved.globalConfig.title), saved.globalConfig.title);
      }
    });
  });
}
