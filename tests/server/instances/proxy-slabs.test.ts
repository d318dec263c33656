import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { describe, test } from 'node:test';
import { MemoryBudget, ReadBuffers } from '../../../server/src/modules/instances/proxy.slabs';

/** A local server that writes `payload` to its first connection, in pieces of `piece` bytes, then closes. */
async function source(payload: Buffer, piece: number, gapMs = 0): Promise<{ port: number; close(): void }> {
  const server = net.createServer(async (socket) => {
    for (let at = 0; at < payload.length; at += piece) {
      if (!socket.write(payload.subarray(at, at + piece)))
        await new Promise((resolve) => socket.once('drain', resolve));
      if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

/**
 * Reads a connection through `buffers` the way the proxy does, holding up to `hold` chunks as if the
 * client were still sending them and releasing each later. Each chunk is hashed when released, so a
 * slab handed out again while still held would show in the digest.
 */
function readThrough(buffers: ReadBuffers, port: number, hold: number) {
  const digest = createHash('sha256');
  const chunks: Buffer[] = [];
  const held: Buffer[] = [];
  return new Promise<{ sha256: string; chunks: Buffer[] }>((resolve, reject) => {
    let paused = false;
    const settle = () => {
      const chunk = held.shift();
      if (!chunk) return;
      digest.update(chunk);
      buffers.release(chunk);
      if (paused && held.length < hold) {
        paused = false;
        socket.resume();
      }
    };
    const socket = net.connect({
      port,
      host: '127.0.0.1',
      onread: buffers.onread((chunk) => {
        chunks.push(chunk);
        held.push(chunk);
        setTimeout(settle, 1);
        paused = held.length >= hold;
        return !paused;
      }),
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const wait = setInterval(() => {
        if (held.length > 0) return;
        clearInterval(wait);
        resolve({ sha256: digest.digest('hex'), chunks });
      }, 5);
    });
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the proxy read buffers', () => {
  test('a stream arrives byte-exact, each chunk unchanged until released, in slabs used again and again', async () => {
    const payload = randomBytes(24 * 1024 * 1024);
    const server = await source(payload, 256 * 1024);
    const buffers = new ReadBuffers();
    try {
      const { sha256: received, chunks } = await readThrough(buffers, server.port, 4);
      assert.equal(received, sha256(payload));
      // Reads of 64 KiB or more come in slabs (a copy, or read straight into one), and held counts the slab.
      const streamed = chunks.filter((chunk) => chunk.length >= 64 * 1024);
      assert.ok(streamed.length > 8, `${streamed.length} large reads`);
      for (const chunk of streamed) assert.equal(buffers.held(chunk), chunk.buffer.byteLength);
      const slabs = new Set(streamed.map((chunk) => chunk.buffer));
      assert.ok(slabs.size < streamed.length / 2, `${streamed.length} chunks in ${slabs.size} slabs`);
    } finally {
      buffers.close();
      server.close();
    }
  });

  test('while the memory budget is spent a stream still arrives whole, in reads of one small share each', async () => {
    const payload = randomBytes(8 * 1024 * 1024);
    const server = await source(payload, 256 * 1024);
    // A budget of nothing is always spent.
    const buffers = new ReadBuffers(new MemoryBudget(0));
    try {
      const { sha256: received, chunks } = await readThrough(buffers, server.port, 4);
      assert.equal(received, sha256(payload));
      const largest = Math.max(...chunks.map((chunk) => chunk.length));
      assert.ok(largest <= 64 * 1024, `a read of ${largest} bytes`);
      for (const chunk of chunks) assert.ok(buffers.held(chunk) <= 64 * 1024);
    } finally {
      buffers.close();
      server.close();
    }
  });

  test('a trickle of small reads gets buffers of its own, which release leaves alone', async () => {
    const payload = randomBytes(40 * 1024);
    const server = await source(payload, 1024, 2);
    const buffers = new ReadBuffers();
    try {
      const { sha256: received, chunks } = await readThrough(buffers, server.port, 2);
      assert.equal(received, sha256(payload));
      assert.ok(chunks.length > 1);
      for (const chunk of chunks) assert.equal(buffers.held(chunk), chunk.length);
    } finally {
      buffers.close();
      server.close();
    }
  });
});
