import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/database';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';

const [pglite] = engines();

/** A stand-in for the webpack output: the minified template really has unquoted placeholders. */
function fakeDist(dir: string) {
  fs.mkdirSync(path.join(dir, 'js'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'static'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang=%lang%><head><meta name=description content=%description%><title>%title%</title></head><body><div id=root></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'js/main.0123abcd.js'), 'console.log(1)');
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
      assert.equal(response.headers['cache-control'], 'no-cache');
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

  test('missing server files are JSON 404s, not the shell', async () => {
    for (const url of ['/static/xx-XX.deadbeef.json', '/js/nope.js', '/api/nope']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.json().status, 404);
    }
  });
});
