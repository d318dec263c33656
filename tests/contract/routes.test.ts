import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listOperations, loadContract } from '../../server/src/contract/contract';
import { createTestApp, type TestApp } from '../server/helpers/app';
import { engines } from '../server/helpers/database';

/** `GET /api/game/{}/freeze`: methods upper-case, paths lower-case (routes match case-insensitively), parameters unnamed. */
const call = (method: string, route: string) =>
  `${method.toUpperCase()} ${route.toLowerCase().replace(/\{[^}]+\}|:[^/]+/g, '{}')}`;

const operations = listOperations(loadContract());
const documented = new Set(
  operations.flatMap((operation) =>
    [operation.method, ...operation.otherMethods].map((method) => call(method, operation.path)),
  ),
);

/**
 * Every route the server declares, as the app builds it (without a built client, so the one route
 * per client file that production adds is not among them: the `/` operation describes those).
 */
const registered = new Set<string>();
/** The contract operation each route was bound to, if any. */
const boundTo = new Map<string, string | undefined>();
let ctx: TestApp;

before(async () => {
  const [pglite] = engines();
  ctx = await createTestApp(pglite!, {
    onRoute(route) {
      for (const method of [route.method].flat()) {
        registered.add(call(method, route.url));
        boundTo.set(call(method, route.url), route.config?.operation?.operationId);
      }
    },
  });
});
after(async () => ctx.close());

test('the contract names every route the server answers', () => {
  assert.ok(registered.size > 150, `expected the whole surface, saw ${registered.size} routes`);
  // Fastify answers HEAD wherever it answers GET; the contract lists the GET.
  const undocumented = [...registered].filter(
    (route) => !documented.has(route) && !(route.startsWith('HEAD ') && documented.has(route.replace('HEAD', 'GET'))),
  );
  assert.deepEqual(undocumented, []);
});

test('every route the contract names is served', () => {
  assert.deepEqual(
    [...documented].filter((route) => !registered.has(route)),
    [],
  );
});

test('plain routes (hubs, probes, metrics, files) are served by their plugins, the rest bound from the contract', () => {
  const plain = operations.filter((operation) => operation.plainRoute);
  assert.ok(plain.length >= 10, `expected the hubs, probes and files, found ${plain.length}`);
  for (const operation of operations) {
    const bound = boundTo.get(call(operation.method, operation.path));
    assert.equal(bound, operation.plainRoute ? undefined : operation.operationId, operation.operationId);
  }
});
