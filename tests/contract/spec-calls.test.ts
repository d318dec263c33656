import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { listOperations, loadContract } from '../../server/src/contract/contract';

/** Parameter names differ between the spec's shorthand and GZCTF's (`{cid}` vs `{cId}`); shapes must not. */
const normalise = (method: string, route: string) =>
  `${method.toUpperCase()} ${route.toLowerCase().replace(/\{[^}]+\}/g, '{}')}`;

const specCalls = fs
  .readFileSync(path.join(__dirname, 'spec-calls.txt'), 'utf8')
  .split('\n')
  .filter((line) => /^(GET|POST|PUT|DELETE) \//.test(line))
  .map((line) => line.split(' ') as [string, string]);

const operations = listOperations(loadContract());
const declared = new Set(operations.map((operation) => normalise(operation.method, operation.path)));
const named = new Set(specCalls.map(([method, route]) => normalise(method, route)));

test('the contract declares every call of client-spec §7', () => {
  assert.equal(specCalls.length, 112);
  const missing = specCalls.filter(([method, route]) => !declared.has(normalise(method, route)));
  assert.deepEqual(missing, []);
});

test('the contract declares nothing beyond them but marked additions and routes outside the API', () => {
  assert.deepEqual(
    operations
      .filter((operation) => !operation.beyond && operation.tag !== 'Server')
      .map((operation) => normalise(operation.method, operation.path))
      .filter((call) => !named.has(call)),
    [],
  );
});

test('additions GZCTF does not have are tagged Beyond and marked x-beyond', () => {
  for (const operation of operations) {
    assert.equal(operation.beyond, operation.tag === 'Beyond', operation.operationId);
    if (operation.beyond) assert.ok(!named.has(normalise(operation.method, operation.path)), operation.operationId);
  }
});

test('operations carry one tag, a unique operationId and a role', () => {
  const tags = new Set(['Account', 'Admin', 'Assets', 'Edit', 'Game', 'Info', 'Proxy', 'Team', 'Beyond', 'Server']);
  const ids = operations.map((operation) => operation.operationId);
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  for (const operation of operations) {
    assert.ok(tags.has(operation.tag), `${operation.operationId} has tag ${operation.tag}`);
    assert.ok(
      operation.operationId.startsWith(operation.tag.toLowerCase()),
      `${operation.operationId} starts with its tag`,
    );
    assert.ok(['anon', 'User', 'Monitor', 'Admin'].includes(operation.auth), `${operation.operationId} x-auth`);
  }
});

test('dates are Unix milliseconds, never date-time strings', () => {
  const text = fs.readFileSync(path.join(__dirname, '../../openapi/gzctf.yaml'), 'utf8');
  assert.doesNotMatch(text, /format:\s*date-time/);
});
