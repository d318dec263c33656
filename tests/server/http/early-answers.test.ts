import assert from 'node:assert/strict';
import { after, before, describe, test, type Mock } from 'node:test';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../server/src/plugins/app/strict-input';
import { createTestApp, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { createUser, type TestUser } from '../helpers/users';
import { destroyRawSockets, listen, rawSend, stalledPost, within } from './support';

/**
 * What a body costs the server when it will be refused anyway: a body to no route is neither read
 * nor parsed, an answer given before the body arrived closes the connection rather than receiving
 * the rest, and JSON nested deeper than any real body is refused before JSON.parse sees it.
 */
const [pglite] = engines();
const parsesOf = (parse: Mock<typeof JSON.parse>, text: string) =>
  parse.mock.calls.filter((call) => call.arguments[0] === text).length;
const nested = (depth: number, inner = '0') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('the JSON nesting scan', () => {
  test('counts arrays and objects, never brackets or escaped quotes inside strings', () => {
    const deepest = (value: unknown): number =>
      value !== null && typeof value === 'object'
        ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(deepest))
        : 0;
    const tricky = ['[[[{{{', ']]]}}}', '\\', '\\"[[[', '"', '\\\\', '\u2028[', 'é[中'];
    const values: unknown[] = [
      tricky,
      { a: tricky, b: [[['\\"']]], '[[[': { '"]': [] } },
      [[[[[['"\\[']]]]]],
      { s: '"'.repeat(50), t: [{ u: '\\'.repeat(7) + '[[' }] },
      'just a string [[[',
      42,
    ];
    for (const value of values) {
      const bytes = Buffer.from(JSON.stringify(value));
      const depth = deepest(value);
      assert.equal(nestsDeeperThan(bytes, depth), false, `${bytes.toString()} within ${depth}`);
      if (depth > 0) assert.equal(nestsDeeperThan(bytes, depth - 1), true, `${bytes.toString()} beyond ${depth - 1}`);
    }
  });
});

describe('answers before the body', () => {
  let ctx: TestApp;
  let port: number;
  let user: TestUser;
  const base = () => `http://127.0.0.1:${port}`;

  before(async () => {
    // The default timeouts (a request may take 5 minutes): what closes a socket here is the answer.
    ctx = await createTestApp(pglite!);
    port = await listen(ctx.app);
    user = await createUser(ctx.app);
  });
  after(async () => {
    destroyRawSockets();
    await ctx.close();
  });

  test('a body to an unknown path is answered 404 without being parsed, and the connection closes', async (t) => {
    const parse = t.mock.method(JSON, 'parse');
    const payload = '{"userName":"nobody","password":"secret","x":[1,2,3]}';
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/nope',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { title: 'Not found', status: 404 });
    assert.equal(response.headers.connection, 'close');
    assert.equal(parsesOf(parse, payload), 0, 'the body was not parsed');
    // Other methods and a body of any type alike; a GET's body is never read by Fastify at all.
    for (const [method, type] of [
      ['PUT', 'application/json'],
      ['DELETE', 'text/plain'],
      ['PATCH', 'multipart/form-data; boundary=x'],
    ]) {
      const other = await ctx.app.inject({
        method: method as 'PUT',
        url: '/api/also/nope',
        headers: { 'content-type': type!, 'accept-language': 'zh-CN' },
        payload,
      });
      assert.equal(other.statusCode, 404, `${method} ${type}`);
      assert.deepEqual(other.json(), { title: '未找到', status: 404 });
    }
    assert.equal(parsesOf(parse, payload), 0);
  });

  test('a body to an unknown path that stops arriving gets its 404 at once, and its socket is closed', async () => {
    const exchange = rawSend(port, stalledPost('/api/nope', 1_048_576, '{"a":'));
    await within(exchange.closed, 'close of the socket');
    const answer = exchange.answer();
    assert.equal(answer.status, 404, exchange.received());
    assert.equal(answer.headers.connection, 'close');
    assert.deepEqual(JSON.parse(answer.body), { title: 'Not found', status: 404 });
  });

  test('a refusal (415, 401) given before a large body arrived closes the connection', async () => {
    const unsupported = rawSend(port, stalledPost('/api/account/login', 1_000_000, 'x'.repeat(100), 'text/plain'));
    await within(unsupported.closed, 'close after the 415');
    assert.equal(unsupported.answer().status, 415, unsupported.received());
    assert.equal(unsupported.answer().headers.connection, 'close');

    const signedOut = rawSend(port, stalledPost('/api/team', 1_000_000, '{"name":'));
    await within(signedOut.closed, 'close after the 401');
    assert.equal(signedOut.answer().status, 401, signedOut.received());
    assert.equal(signedOut.answer().headers.connection, 'close');
  });

  test('a refusal of a body that has fully arrived keeps the connection for the next request', async () => {
    const body = '{"name":"x"}';
    const exchange = rawSend(
      port,
      `POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}` +
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    await within(
      (async () => {
        while ((exchange.received().match(/HTTP\/1\.1 /g) ?? []).length < 2) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })(),
      'both answers',
    );
    assert.equal(exchange.answer().status, 415);
    assert.notEqual(exchange.answer().headers.connection, 'close');
    assert.match(exchange.received(), /HTTP\/1\.1 200 /);
    exchange.socket.destroy();
  });

  test(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is 400 in the caller’s language, never parsed`, async (t) => {
    const parse = t.mock.method(JSON, 'parse');
    const login = (payload: string, language = 'en-US') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/account/login',
        headers: { 'content-type': 'application/json', 'accept-language': language },
        payload,
      });
    const deep = nested(1_000);
    const refused = await login(deep);
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json(), {
      title: `The JSON body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
      status: 400,
    });
    assert.equal(parsesOf(parse, deep), 0, 'JSON.parse never saw it');
    const chinese = await login(deep, 'zh-CN');
    assert.deepEqual(chinese.json(), { title: `JSON 请求体嵌套过深（最多 ${MAX_JSON_DEPTH} 层）`, status: 400 });

    // Inside a valid login, one level past the limit and at the limit: only the first is refused.
    const credentials = (depth: number) =>
      `{"userName":${JSON.stringify(user.userName)},"password":${JSON.stringify(user.password)},` +
      `"extra":${nested(depth - 1)}}`;
    const tooDeep = await login(credentials(MAX_JSON_DEPTH + 1));
    assert.equal(tooDeep.statusCode, 400);
    assert.equal(parsesOf(parse, credentials(MAX_JSON_DEPTH + 1)), 0);
    const atLimit = await login(credentials(MAX_JSON_DEPTH));
    assert.equal(atLimit.statusCode, 200, atLimit.body);
  });

  test('an ordinary sign-in works, brackets and escapes in its strings included', async () => {
    const response = await fetch(`${base()}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: user.userName, password: user.password }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.ok(response.headers.getSetCookie().some((cookie) => cookie.startsWith('GZCTF_Token=')));
    assert.notEqual(response.headers.get('connection'), 'close');

    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/login',
      payload: { userName: user.userName, password: `${'['.repeat(5_000)}\\"${'{'.repeat(5_000)}` },
    });
    assert.equal(wrong.statusCode, 401, wrong.body);
  });
});
