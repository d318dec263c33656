import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listOperations, loadContract } from '../../../server/src/contract/contract';
import { handlers } from '../../../server/src/routes/handlers';
import { engines } from '../helpers/database';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { asUser } from '../helpers/users';

const [pglite] = engines();

describe('routes registered from the contract', () => {
  let ctx: TestApp;
  before(async () => {
    ctx = await createTestApp(pglite!);
  });
  after(async () => ctx.close());

  test('every contract operation has a route', () => {
    const operations = listOperations(loadContract());
    assert.ok(operations.length > 100, `expected the whole GZCTF surface, found ${operations.length} operations`);
    for (const operation of operations) {
      const url = operation.path.replace(/\{[^}]+\}/g, '1');
      assert.ok(
        ctx.app.hasRoute({
          method: operation.method.toUpperCase() as 'GET',
          url: operation.path.replace(/\{([^}]+)\}/g, ':$1'),
        }),
        `${operation.method.toUpperCase()} ${operation.path} (${url}) is not routed`,
      );
    }
  });

  test('every operation is built, and one without a handler would answer 501 {title, status}', async () => {
    // Plain routes (hubs, probes, files) are served by their own plugins (tests/contract/routes.test.ts).
    const missing = listOperations(loadContract()).filter(
      (operation) => !operation.plainRoute && !(operation.operationId in handlers),
    );
    assert.deepEqual(
      missing.map((operation) => operation.operationId),
      [],
    );
    // The 501 path, with one handler taken away (the route guard runs first, so sign in).
    const { gameCreateContainer: _omitted, ...partial } = handlers;
    const app = await createTestApp(pglite!, { handlers: partial });
    try {
      const { cookie } = await asUser(app.app);
      const response = await app.app.inject({ method: 'POST', url: '/api/game/1/container/1', headers: { cookie } });
      assert.equal(response.statusCode, 501);
      assert.deepEqual(Object.keys(response.json()).sort(), ['status', 'title']);
      assert.equal(response.json().status, 501);
      assert.match(response.json().title, /gameCreateContainer/);
    } finally {
      await app.close();
    }
  });

  test('bad input is refused with a 400 naming the field, in the request language', async () => {
    const english = await ctx.app.inject({ method: 'GET', url: '/api/team/abc' });
    assert.equal(english.statusCode, 400);
    assertMatchesContract('teamGetBasicInfo', english.json(), 400);
    assert.match(english.json().title, /^id must be of type integer/);

    const chinese = await ctx.app.inject({
      method: 'GET',
      url: '/api/team/abc',
      headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' },
    });
    assert.equal(chinese.statusCode, 400);
    assert.equal(chinese.json().title, 'id 的类型必须为 integer');
  });

  test('query limits from the contract are enforced', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/game?count=5000' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().status, 400);
    assert.match(response.json().title, /count/);
  });

  test('paths match case-insensitively, as in GZCTF', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/API/Config' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().title, 'GZ');
  });

  test('an unknown API path is a JSON 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { title: 'Not found', status: 404 });
  });

  test('malformed JSON bodies get a {title, status} 400', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"userName":',
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().status, 400);
    assert.equal(typeof response.json().title, 'string');
  });

  test('/healthz reports the database', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'Healthy', database: 'pglite' });
  });
});
