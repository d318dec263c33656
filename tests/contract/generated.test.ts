import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generateAll } from '../../openapi/generate';

/** Fails when a generated file was edited by hand or the contract changed without `npm run api:gen`. */
test('generated client endpoints and server types match the contract', async () => {
  const files = await generateAll();
  assert.ok(files.size >= 8);
  const stale = [...files]
    .filter(([file, content]) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== content)
    .map(([file]) => path.relative(path.resolve(__dirname, '../..'), file));
  assert.deepEqual(stale, [], `stale generated files; run \`npm run api:gen\``);
});
