import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

/** `npm ci` on a fresh clone needs the lock to list every optional platform binary (see the script). */
test('package-lock.json is complete enough for npm ci', () => {
  const result = spawnSync(process.execPath, [path.join(__dirname, '../../.ci/complete-lockfile.cjs'), '--check'], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
});
