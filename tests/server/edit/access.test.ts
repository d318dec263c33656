import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listOperations, loadContract } from '../../../server/src/contract/contract';
import { editHandlers } from '../../../server/src/routes/edit/edit.routes';
import { reviewHandlers } from '../../../server/src/routes/admin/review.routes';
import { writeupsHandlers } from '../../../server/src/routes/admin/writeups.routes';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';

// Every operation this module answers, with its path from the contract (ids filled in).
const built = new Set(Object.keys({ ...editHandlers, ...reviewHandlers, ...writeupsHandlers }));
const operations = listOperations(loadContract()).filter((operation) => built.has(operation.operationId));

for (const engine of engines()) {
  describe(`game authoring is for admins only (${engine.name})`, () => {
    let ctx: TestApp;
    const cookies: Record<string, string> = {};

    before(async () => {
      ctx = await createTestApp(engine);
      for (const role of ['User', 'Monitor', 'Banned', 'Admin'] as const)
        cookies[role] = (await asUser(ctx.app, role)).cookie;
    });
    after(async () => ctx.close());

    test('covers every operation of the module, all Admin-only in the contract', () => {
      assert.equal(operations.length, built.size);
      assert.equal(operations.length, 23);
      for (const operation of operations) assert.equal(operation.auth, 'Admin', operation.operationId);
    });

    for (const operation of operations) {
      test(`${operation.operationId}: 401 signed out, 403 for User, Monitor and Banned`, async () => {
        const url = operation.path.replace(/\{[^}]+\}/g, '1');
        const method = operation.method.toUpperCase() as 'GET';
        const signedOut = await ctx.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
        assert.equal(signedOut.statusCode, 401, signedOut.body);
        assertMatchesContract(operation.operationId, signedOut.json(), 401);
        for (const role of ['User', 'Monitor', 'Banned']) {
          const response = await ctx.app.inject({
            method,
            url,
            payload: method === 'GET' ? undefined : {},
            headers: { cookie: cookies[role]! },
          });
          assert.equal(response.statusCode, 403, `${role}: ${response.body}`);
          assertMatchesContract(operation.operationId, response.json(), 403);
        }
        // An admin gets past the guard (whatever the fake ids then lead to).
        const admin = await ctx.app.inject({
          method,
          url,
          payload: method === 'GET' ? undefined : {},
          headers: { cookie: cookies.Admin! },
        });
        assert.ok(![401, 403, 501].includes(admin.statusCode), `${operation.operationId}: ${admin.statusCode}`);
      });
    }
  });
}
