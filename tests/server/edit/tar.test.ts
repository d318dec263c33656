import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, test } from 'node:test';
import { createTarStream, type TarEntry } from '../../../server/src/lib/tar';
import { parseTar } from './tar-reader';

const entry = (name: string, content: Buffer, mtime = new Date('2025-06-02T12:00:00Z')): TarEntry => ({
  name,
  size: content.length,
  mtime,
  open: () => Readable.from([content.subarray(0, 100), content.subarray(100)]),
});

describe('tar writer', () => {
  const files = [
    entry('1-alpha.pdf', Buffer.from('%PDF-1.4 alpha')),
    entry('2-队伍.pdf', Buffer.alloc(1500, 7)),
    entry(`3-${'x'.repeat(120)}.pdf`, Buffer.alloc(512, 1)),
    entry('4-empty.pdf', Buffer.alloc(0)),
  ];

  test('parses back to the same names, bytes and times', async () => {
    const archive = await buffer(createTarStream(files));
    assert.equal(archive.length % 512, 0);
    const parsed = parseTar(archive);
    assert.deepEqual(
      parsed.map((item) => item.name),
      files.map((file) => file.name),
    );
    assert.equal(parsed[0]!.data.toString(), '%PDF-1.4 alpha');
    assert.deepEqual(parsed[1]!.data, Buffer.alloc(1500, 7));
    assert.deepEqual(parsed[2]!.data, Buffer.alloc(512, 1));
    assert.equal(parsed[3]!.data.length, 0);
    assert.equal(parsed[0]!.mtime, Date.parse('2025-06-02T12:00:00Z') / 1000);
  });

  test('an empty archive is two zero blocks', async () => {
    const archive = await buffer(createTarStream([]));
    assert.deepEqual(archive, Buffer.alloc(1024));
  });

  test('fails when an entry yields other than its declared size', async () => {
    const liar: TarEntry = { name: 'a', size: 10, open: () => Readable.from([Buffer.alloc(3)]) };
    await assert.rejects(buffer(createTarStream([liar])), /shorter/);
  });

  test('system tar reads it too', async (t) => {
    const probe = spawnSync('tar', ['--version']);
    if (probe.status !== 0) return t.skip('no tar on this machine');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tar-test-'));
    try {
      const file = path.join(dir, 'a.tar');
      fs.writeFileSync(file, await buffer(createTarStream(files)));
      const listed = spawnSync('tar', ['-tf', file], { encoding: 'utf8' });
      assert.equal(listed.status, 0, listed.stderr);
      assert.deepEqual(
        listed.stdout.trim().split('\n'),
        files.map((item) => item.name),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
