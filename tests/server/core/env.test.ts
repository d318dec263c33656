import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { EnvError, loadEnv } from '../../../server/src/env';

test('an empty environment gives the embedded defaults', () => {
  const env = loadEnv({});
  assert.equal(env.port, 8080);
  assert.equal(env.host, '0.0.0.0');
  assert.equal(env.dataDir, path.resolve('data'));
  assert.equal(env.databaseUrl, undefined);
  assert.equal(env.redisUrl, undefined);
  assert.equal(env.portMapping, 'Default');
});

test('empty strings count as unset', () => {
  const env = loadEnv({ DATABASE_URL: '', REDIS_URL: ' ' });
  assert.equal(env.databaseUrl, undefined);
  assert.equal(env.redisUrl, undefined);
});

test('bad values are all reported by variable name', () => {
  assert.throws(
    () => loadEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', PORT_MAPPING: 'Tunnel', LOG_LEVEL: 'loud' }),
    (error: unknown) => {
      assert.ok(error instanceof EnvError);
      const names = error.problems.map((problem) => problem.split(':')[0]);
      assert.deepEqual(names.sort(), ['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'PORT_MAPPING']);
      assert.match(error.message, /^Invalid configuration:/);
      assert.match(error.message, /DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//);
      return true;
    },
  );
});
