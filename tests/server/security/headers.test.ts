import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { shellPolicy } from '../../../server/src/plugins/app/security-headers';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 7)]);

/** The parts of the built client the shell needs: the minified template keeps attributes unquoted. */
function fakeDist(dir: string) {
  fs.mkdirSync(path.join(dir, 'js'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang=%lang%><head><meta property=csp-nonce content=%nonce%><title>%title%</title></head>' +
      '<body><div id=root></div><script defer src=/js/main.0123abcd.js></script></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'js/main.0123abcd.js'), 'console.log(1)');
}

/** The policy's directives by name. */
function directives(policy: unknown): Map<string, string[]> {
  assert.equal(typeof policy, 'string');
  return new Map(
    (policy as string).split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

for (const engine of engines()) {
  describe(`security headers (${engine.name})`, () => {
    let ctx: TestApp;
    let cookie: string;

    before(async () => {
      const env = testEnv();
      const distDir = path.join(env.dataDir, 'dist');
      fakeDist(distDir);
      ctx = await createTestApp(engine, { env: { ...env, distDir } });
      ({ cookie } = await asUser(ctx.app, 'Admin'));
    });
    after(async () => ctx.close());

    async function upload(filename: string, content: string | Buffer): Promise<string> {
      const body = multipart([{ field: 'files', filename, content }]);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/assets',
        payload: body.payload,
        headers: { ...body.headers, cookie },
      });
      assert.equal(response.statusCode, 200, response.body);
      return sha256(content);
    }

    test('the shell carries a fresh nonce in its policy and its page, never cached', async () => {
      const nonces = new Set<string>();
      for (const url of ['/', '/games/1/challenges', '/admin/users', '/index.html']) {
        const response = await ctx.app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 200, url);
        const policy = directives(response.headers['content-security-policy']);
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy.get('script-src')?.join(' ') ?? '')?.[1];
        assert.ok(nonce && nonce.length >= 22, 'at least 128 bits');
        assert.deepEqual(policy.get('script-src'), ["'self'", `'nonce-${nonce}'`], 'scripts: ours and the nonce only');
        assert.deepEqual(policy.get('style-src'), ["'self'", `'nonce-${nonce}'`], 'emotion gets the same nonce');
        assert.deepEqual(policy.get('object-src'), ["'none'"]);
        assert.deepEqual(policy.get('base-uri'), ["'none'"]);
        assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
        assert.ok(policy.get('connect-src')?.includes("'self'"));
        assert.ok(policy.get('connect-src')?.includes('ws://localhost:80'), 'the hubs, for browsers without CSP 3');
        assert.ok(policy.get('connect-src')?.includes('http://127.0.0.1:*'), 'the local wsrx daemon');
        assert.ok(
          response.body.includes(`<meta property=csp-nonce content="${nonce}">`),
          'the page hands emotion the nonce',
        );
        assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin');
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
        assert.equal(response.headers['x-frame-options'], 'DENY');
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.equal(response.headers.etag, undefined);
        nonces.add(nonce);
      }
      assert.equal(nonces.size, 4, 'every answer has its own nonce');
    });

    test('a hostile Host header cannot add directives to the policy', async () => {
      for (const host of ['evil.example; script-src *', 'a b', "x' 'unsafe-inline"]) {
        const response = await ctx.app.inject({ method: 'GET', url: '/', headers: { host } });
        assert.equal(response.statusCode, 200);
        const policy = directives(response.headers['content-security-policy']);
        assert.deepEqual(policy.get('connect-src'), ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'], host);
        assert.equal(policy.get('script-src')?.length, 2, host);
      }
    });

    test('nosniff and the referrer policy on every answer: JSON, errors, 304s, static files', async () => {
      const config = await ctx.app.inject({ method: 'GET', url: '/api/config' });
      assert.equal(config.statusCode, 200);
      const notModified = await ctx.app.inject({
        method: 'GET',
        url: '/api/config',
        headers: { 'if-none-match': String(config.headers.etag) },
      });
      assert.equal(notModified.statusCode, 304);
      const answers = {
        config,
        notModified,
        notFound: await ctx.app.inject({ method: 'GET', url: '/api/nope' }),
        unauthorized: await ctx.app.inject({ method: 'GET', url: '/api/account/profile' }),
        invalid: await ctx.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 1 } }),
        badJson: await ctx.app.inject({
          method: 'POST',
          url: '/api/account/login',
          payload: '{"userName":',
          headers: { 'content-type': 'application/json' },
        }),
        wrongType: await ctx.app.inject({
          method: 'POST',
          url: '/api/account/login',
          payload: 'x',
          headers: { 'content-type': 'application/x-nonsense' },
        }),
        bundle: await ctx.app.inject({ method: 'GET', url: '/js/main.0123abcd.js' }),
        missingBundle: await ctx.app.inject({ method: 'GET', url: '/js/missing.js' }),
        favicon: await ctx.app.inject({ method: 'GET', url: '/favicon.webp' }),
        head: await ctx.app.inject({ method: 'HEAD', url: '/' }),
      };
      for (const [name, response] of Object.entries(answers)) {
        assert.equal(response.headers['x-content-type-options'], 'nosniff', name);
        assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin', name);
        assert.ok(response.statusCode < 500, `${name}: ${response.statusCode}`);
      }
      for (const name of ['notFound', 'unauthorized', 'invalid', 'badJson', 'wrongType'] as const) {
        const body = answers[name].json<{ title: string; status: number }>();
        assert.equal(typeof body.title, 'string', name);
        assert.equal(body.status, answers[name].statusCode, name);
      }
    });

    test('on a listening server, even what Fastify answers before routing (an undecodable URL)', async () => {
      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      for (const url of ['/api/%zz', '/api/config']) {
        const response = await fetch(`${base}${url}`);
        await response.arrayBuffer();
        assert.ok(response.status < 500, url);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff', url);
        assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', url);
      }
    });

    test('uploaded files: pictures inline, everything else an attachment under a sandboxing policy', async () => {
      const text = await upload('notes.txt', 'just text');
      const svg = await upload('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const picture = await upload('picture.png', PNG);
      const cases: Array<{ url: string; type: RegExp; inline: boolean }> = [
        { url: `/assets/${text}/notes.txt`, type: /^text\/plain/, inline: false },
        { url: `/assets/${text}/notes.pdf`, type: /^application\/pdf$/, inline: false },
        { url: `/assets/${text}/notes.html`, type: /^text\/plain/, inline: false },
        { url: `/assets/${text}/notes.json`, type: /^application\/json$/, inline: false },
        { url: `/assets/${svg}/logo.svg`, type: /^text\/plain/, inline: false },
        { url: `/assets/${svg}/logo.SVGZ`, type: /^text\/plain/, inline: false },
        { url: `/assets/${picture}/picture.png`, type: /^image\/png$/, inline: true },
        { url: `/assets/${picture}/avatar`, type: /^image\/png$/, inline: true },
        { url: `/assets/${picture}/photo.JPG`, type: /^image\/jpeg$/, inline: true },
      ];
      for (const { url, type, inline } of cases) {
        const response = await ctx.app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 200, url);
        assert.match(String(response.headers['content-type']), type, url);
        assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
        if (inline) {
          assert.equal(response.headers['content-disposition'], undefined, url);
          assert.equal(response.headers['content-security-policy'], undefined, url);
        } else {
          assert.match(String(response.headers['content-disposition']), /^attachment; filename="/, url);
          const policy = directives(response.headers['content-security-policy']);
          assert.ok(policy.has('sandbox'), url);
          assert.deepEqual(policy.get('default-src'), ["'none'"], url);
        }
      }
      const revalidated = await ctx.app.inject({
        method: 'GET',
        url: `/assets/${svg}/logo.svg`,
        headers: { 'if-none-match': `"${svg.slice(8, 16)}"` },
      });
      assert.equal(revalidated.statusCode, 304);
      assert.equal(revalidated.headers['x-content-type-options'], 'nosniff');
    });
  });
}

describe('the shell policy', () => {
  test('the hubs are allowed over ws: and wss:, and Turnstile only when it is the captcha', () => {
    const plain = directives(shellPolicy('abc', { host: 'ctf.example' }, 'None'));
    assert.ok(plain.get('connect-src')?.includes('wss://ctf.example'));
    assert.ok(plain.get('connect-src')?.includes('ws://ctf.example'));
    assert.deepEqual(plain.get('script-src'), ["'self'", "'nonce-abc'"]);
    assert.deepEqual(plain.get('frame-src'), ["'self'"]);
    const turnstile = directives(shellPolicy('abc', { host: 'ctf.example' }, 'CloudflareTurnstile'));
    assert.deepEqual(turnstile.get('script-src'), ["'self'", "'nonce-abc'", 'https://challenges.cloudflare.com']);
    assert.deepEqual(turnstile.get('frame-src'), ["'self'", 'https://challenges.cloudflare.com']);
  });
});
