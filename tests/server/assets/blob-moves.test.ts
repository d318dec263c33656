import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { blobPath, moveIntoBlob } from '../../../server/src/lib/blobs';

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

// Uploads are received under the data directory and renamed into the store; an organiser may still
// mount the store's folder on a volume of its own, where a rename cannot reach.
test('a received file on another file system is copied into the store and removed', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blob-move-'));
  // /dev/shm is a tmpfs of its own on Linux: a rename from there fails with EXDEV.
  const elsewhere = fs.mkdtempSync(path.join('/dev/shm', 'blob-move-'));
  try {
    assert.notEqual(fs.statSync(elsewhere).dev, fs.statSync(dataDir).dev, 'two file systems');
    const content = Buffer.from(`moved ${Date.now()}`);
    const hash = sha256(content);
    const source = path.join(elsewhere, 'received.part');
    fs.writeFileSync(source, content);
    await moveIntoBlob(dataDir, hash, content.length, source);
    assert.ok(fs.readFileSync(blobPath(dataDir, hash)).equals(content));
    assert.equal(fs.existsSync(source), false);
    assert.deepEqual(fs.readdirSync(path.dirname(blobPath(dataDir, hash))), [hash], 'no temporary file left');

    // The same bytes again: the store has them, so the received copy just goes.
    fs.writeFileSync(source, content);
    await moveIntoBlob(dataDir, hash, content.length, source);
    assert.equal(fs.existsSync(source), false);
    assert.ok(fs.readFileSync(blobPath(dataDir, hash)).equals(content));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});
