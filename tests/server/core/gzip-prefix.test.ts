import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { GzipPrefix } from '../../../server/src/lib/gzip-prefix';

/** Inflates the way a browser does: as the bytes arrive, a few at a time. */
async function streamed(encoded: Buffer): Promise<string> {
  const chunks: Buffer[] = [];
  const gunzip = zlib.createGunzip();
  gunzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(gunzip, 'end');
  for (let at = 0; at < encoded.length; at += 7) gunzip.write(encoded.subarray(at, at + 7));
  gunzip.end();
  await ended;
  return Buffer.concat(chunks).toString('utf8');
}

describe('gzip with a shared compressed start', () => {
  const start = `{"challenges":${JSON.stringify(
    Array.from({ length: 200 }, (_, id) => ({ id, title: `Challenge ${id} – ünïcode`, score: 1000 - id })),
  )},`;
  const prefix = new GzipPrefix(start);

  test('each answer is one gzip member that any decoder reads as start + end', async () => {
    for (const end of ['"rank":{"id":7},"teamToken":"7:abc"}', '', '}', 'é'.repeat(5000), 'x'.repeat(70_000)]) {
      const encoded = prefix.finish(end);
      assert.deepEqual([...encoded.subarray(0, 3)], [0x1f, 0x8b, 8]);
      assert.equal(zlib.gunzipSync(encoded).toString('utf8'), start + end);
      assert.equal(await streamed(encoded), start + end);
    }
  });

  test('about as small as gzipping the whole text at once', () => {
    const end = '"rank":{"id":7,"score":1200},"teamToken":"7:abcdef","writeupRequired":false}';
    const whole = zlib.gzipSync(start + end, { level: 6 }).length;
    assert.ok(prefix.finish(end).length <= whole + 64, `${prefix.finish(end).length} vs ${whole}`);
  });
});
