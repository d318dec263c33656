import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { DialMemory, dialFirst } from '../../../server/src/modules/instances/proxy.dial';
import { createLocalGate, createRedisGate, type StartGate } from '../../../server/src/modules/instances/start-gate';

/** Runs `count` tasks through the gates (round-robin) and returns the most that ran at once. */
async function peakConcurrency(gates: StartGate[], count: number): Promise<{ peak: number; done: number }> {
  let running = 0;
  let peak = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: count }, (_, n) =>
      gates[n % gates.length]!.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        done += 1;
      }),
    ),
  );
  return { peak, done };
}

describe('the container start gate', () => {
  test('in process: at most the limit run at once, the rest wait and all finish', async () => {
    const gate = createLocalGate(3);
    const { peak, done } = await peakConcurrency([gate], 20);
    assert.equal(peak, 3);
    assert.equal(done, 20);
    assert.deepEqual(gate.stats(), { running: 0, waiting: 0 });
  });

  test('a failing task frees its slot', async () => {
    const gate = createLocalGate(1);
    await assert.rejects(
      gate.run(async () => Promise.reject(new Error('engine said no'))),
      /engine said no/,
    );
    assert.equal(await gate.run(async () => 'next'), 'next');
  });

  const url = process.env.REDIS_URL;
  describe('through Redis', { skip: url ? false : 'REDIS_URL is not set' }, () => {
    const redis = url ? new Redis(url) : undefined;
    after(async () => redis?.quit());

    test('two platform instances share one limit', async () => {
      const key = `gzctf:test:${Date.now()}:starts`;
      const gates = [
        createRedisGate({ redis: redis!, key, limit: 2, retryMs: 20 }),
        createRedisGate({ redis: redis!, key, limit: 2, retryMs: 20 }),
      ];
      try {
        const { peak, done } = await peakConcurrency(gates, 16);
        assert.ok(peak <= 2, `peak ${peak}`);
        assert.equal(done, 16);
        assert.equal(await redis!.zcard(key), 0);
      } finally {
        await Promise.all(gates.map((gate) => gate.close()));
      }
    });
  });
});

describe('dialing a container', () => {
  test('falls back to the next address when one does not answer, and remembers the one that did', async () => {
    const server = net.createServer((socket) => socket.on('error', () => {}).end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A port nobody listens on: taken, then released.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    try {
      const candidates = [
        { host: '127.0.0.1', port: deadPort },
        { host: '127.0.0.1', port: (server.address() as net.AddressInfo).port },
      ];
      const memory = new DialMemory();
      const ordered = memory.order('c', candidates);
      const { socket, index } = await dialFirst(ordered, 2000);
      assert.equal(index, 1);
      socket.destroy();
      memory.remember('c', candidates, ordered, index);
      assert.deepEqual(memory.order('c', candidates), [candidates[1], candidates[0]]);
      await assert.rejects(dialFirst([candidates[0]!], 2000));
    } finally {
      server.close();
    }
  });
});
