import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { batcherOf } from '../../../server/src/lib/batcher';

// The one batching helper, without a database: its owner is any object standing for one.

describe('batcherOf', () => {
  test('one batcher per owner and name: the first caller makes it, later callers share it', async () => {
    const [first, second] = [{}, {}];
    const batches: number[][] = [];
    const double = (inputs: number[]) => {
      batches.push(inputs);
      return Promise.resolve(inputs.map((input) => input * 2));
    };
    const options = { maxBatch: 10, maxInFlight: 1 };
    const batcher = batcherOf(first, 'double', double, options);
    assert.equal(batcherOf(first, 'double', double, options), batcher);
    assert.notEqual(batcherOf(second, 'double', double, options), batcher);
    assert.notEqual(batcherOf(first, 'other', double, options), batcher);

    // Calls made in one turn go out together, each answered with its own result.
    assert.deepEqual(await Promise.all([1, 2, 3].map((input) => batcher.run(input))), [2, 4, 6]);
    assert.deepEqual(batches, [[1, 2, 3]]);
  });

  test('a failing batch is retried call by call, so only the bad input fails', async () => {
    const batches: number[][] = [];
    const batcher = batcherOf(
      {},
      'strict',
      (inputs: number[]) => {
        batches.push(inputs);
        return inputs.includes(13) ? Promise.reject(new Error('unlucky')) : Promise.resolve(inputs);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([12, 13, 14].map((input) => batcher.run(input)));
    assert.deepEqual(
      results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
      [12, 'unlucky', 14],
    );
    assert.deepEqual(batches, [[12, 13, 14], [12], [13], [14]]);
  });

  test('no more batches run at once than allowed; calls waiting meanwhile go out together', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = batcherOf(
      {},
      'gated',
      async (inputs: number[]) => {
        batches.push(inputs);
        await gate;
        return inputs;
      },
      { maxBatch: 2, maxInFlight: 1 },
    );
    const first = batcher.run(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4].map((input) => batcher.run(input));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1]], 'the others wait for the running batch');
    release();
    assert.deepEqual(await Promise.all([first, ...rest]), [1, 2, 3, 4]);
    assert.deepEqual(batches, [[1], [2, 3], [4]]);
  });
});
