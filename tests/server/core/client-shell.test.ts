import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { engines } from '../helpers/database';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';

const [pglite] = engines();

const BIG_BUNDLE = Buffer.from(Array.from({ length: 400 }, (_, i) => `window.x${i} = ${i};`).join('\n'));

/** A stand-in for the webpack output: the minified template really has unquoted placeholders. */
function fakeDist(dir: string) {
  fs.mkdirSync(path.join(dir, 'js'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'static'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang=%lang%><head><meta name=description content=%description%><title>%title%</title></head><body><div id=root></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'js/main.0123abcd.js'), 'console.log(1)');
  // A bundle as the build leaves it: compressed beside the original (webpack.config.ts).
  fs.writeFileSync(path.join(dir, 'js/big.0123abcd.js'), BIG_BUNDLE);
  fs.writeFileSync(path.join(dir, 'js/big.0123abcd.js.br'), zlib.brotliCompressSync(BIG_BUNDLE));
  fs.writeFileSync(path.join(dir, 'js/big.0123abcd.js.gz'), zlib.gzipSync(BIG_BUNDLE));
  fs.writeFileSync(path.join(dir, 'static/en-US.0123abcd.json'), '{"common":{}}');
}

describe('serving the built client', () => {
  let ctx: TestApp;
  before(async () => {
    const env = testEnv();
    const distDir = path.join(env.dataDir, 'dist');
    fakeDist(distDir);
    ctx = await createTestApp(pglite!, { env: { ...env, distDir } });
    await ctx.app.settings.update({ globalConfig: { title: '<Big> "CTF"', description: 'Spaces & more' } });
  });
  after(async () => ctx.close());

  test('client routes get the shell with title, description and language filled in and escaped', async () => {
    for (const url of ['/', '/games/1/scoreboard', '/Admin/Users', '/index.html']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-language': 'fr-FR' } });
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), /text\/html/);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.match(response.body, /<title>&#60;Big&#62; &#34;CTF&#34;::CTF<\/title>/);
      assert.match(response.body, /content="Spaces &#38; more"/);
      assert.match(response.body, /<html lang="fr-FR">/);
    }
  });

  test('hashed bundles and language files are cached for a year', async () => {
    for (const url of ['/js/main.0123abcd.js', '/static/en-US.0123abcd.json']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      assert.match(response.headers['cache-control'] ?? '', /max-age=31536000, immutable/);
    }
  });

  test('bundles go out precompressed by Accept-Encoding, with their type, length and Vary', async () => {
    const url = '/js/big.0123abcd.js';
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.1, gzip;q=0.5', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accept, coding] of cases) {
      const response = await ctx.app.inject({
        method: 'GET',
        url,
        headers: accept ? { 'accept-encoding': accept } : {},
      });
      assert.equal(response.statusCode, 200, accept);
      assert.equal(response.headers['content-encoding'], coding, accept);
      assert.match(String(response.headers['content-type']), /javascript/, accept);
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable', accept);
      assert.match(String(response.headers.vary), /accept-encoding/i, accept);
      const expected = fs.readFileSync(
        path.join(ctx.env.distDir, `${url}${{ br: '.br', gzip: '.gz' }[coding ?? ''] ?? ''}`),
      );
      assert.deepEqual(response.rawPayload, expected, accept);
      assert.equal(Number(response.headers['content-length']), expected.length, accept);
    }
  });

  test('the shell is never stored nor revalidated: each answer has its own nonce (tests/server/security)', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'de-DE' } });
    assert.equal(first.headers.etag, undefined);
    assert.match(String(first.headers.vary), /accept-language/i);
    // Even a client replaying an old validator gets the whole page, with a policy matching it.
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/games/1',
      headers: { 'accept-language': 'de-DE', 'if-none-match': '*' },
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['cache-control'], 'no-store');
    assert.notEqual(again.headers['content-security-policy'], first.headers['content-security-policy']);
  });

  test('missing server files are JSON 404s, not the shell', async () => {
    for (const url of ['/static/xx-XX.deadbeef.json', '/js/nope.js', '/api/nope']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.json().status, 404);
    }
  });
});
