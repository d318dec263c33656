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

test('CONTAINER_REGISTRIES: credentials by registry host, refused without ever repeating a value', () => {
  assert.deepEqual(loadEnv({}).containers.registries, []);
  const env = loadEnv({
    CONTAINER_REGISTRIES: JSON.stringify({
      'Registry.Example.org:5000': { userName: 'ctf', password: 'p@ss:w,rd' },
      'docker.io': { userName: 'hub', password: 'token' },
    }),
  });
  assert.deepEqual(env.containers.registries, [
    { host: 'registry.example.org:5000', userName: 'ctf', password: 'p@ss:w,rd' },
    { host: 'docker.io', userName: 'hub', password: 'token' },
  ]);
  const secret = 'hunter2-secret';
  for (const bad of [
    `{"registry.example.org": {"userName": "ctf", "password": "${secret}"`,
    JSON.stringify([{ userName: 'ctf', password: secret }]),
    JSON.stringify({ 'https://registry.example.org/': { userName: 'ctf', password: secret } }),
    JSON.stringify({ 'registry.example.org': { userName: 'ctf' } }),
    JSON.stringify({ 'registry.example.org': { userName: 'ctf', password: 42 } }),
  ]) {
    assert.throws(
      () => loadEnv({ CONTAINER_REGISTRIES: bad }),
      (error: unknown) => {
        assert.ok(error instanceof EnvError);
        assert.match(error.message, /CONTAINER_REGISTRIES: /);
        assert.doesNotMatch(error.message, new RegExp(secret));
        return true;
      },
      bad,
    );
  }
});

test('capture and proxy bounds: sensible defaults in MiB, given in bytes; bad values named', () => {
  const env = loadEnv({});
  assert.deepEqual(env.containers.capture, { maxFileBytes: 32 * 1024 * 1024, minFreeBytes: 1024 * 1024 * 1024 });
  assert.equal(env.containers.proxyMemoryBytes, 128 * 1024 * 1024);
  const set = loadEnv({ CAPTURE_MAX_FILE_MB: '4', CAPTURE_MIN_FREE_MB: '0', PROXY_MEMORY_MB: '512' });
  assert.deepEqual(set.containers.capture, { maxFileBytes: 4 * 1024 * 1024, minFreeBytes: 0 });
  assert.equal(set.containers.proxyMemoryBytes, 512 * 1024 * 1024);
  assert.throws(
    () => loadEnv({ CAPTURE_MAX_FILE_MB: '0', CAPTURE_MIN_FREE_MB: '-1', PROXY_MEMORY_MB: 'lots' }),
    (error: unknown) => {
      assert.ok(error instanceof EnvError);
      assert.deepEqual(error.problems.map((problem) => problem.split(':')[0]).sort(), [
        'CAPTURE_MAX_FILE_MB',
        'CAPTURE_MIN_FREE_MB',
        'PROXY_MEMORY_MB',
      ]);
      return true;
    },
  );
});
