import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { challengeScore, minimumScore } from '../../../server/src/lib/scoring';

describe('challenge score (reference §5.6)', () => {
  const score = (acceptedCount: number, originalScore = 1000, minScoreRate = 0.25, difficulty = 5) =>
    challengeScore({ originalScore, minScoreRate, difficulty, acceptedCount });

  test('is the original score until a second team solves it', () => {
    assert.equal(score(0), 1000);
    assert.equal(score(1), 1000);
  });

  test('decays as floor(S·(r + (1−r)·e^((1−x)/d)))', () => {
    assert.equal(score(2), 864);
    assert.equal(score(10), 373);
    assert.equal(score(100), 250);
    assert.deepEqual(
      [0, 1, 2, 10, 100].map((x) => score(x, 500, 0.1, 3)),
      [500, 500, 372, 72, 50],
    );
  });

  test('never falls below the minimum and never rises with more solves', () => {
    let previous = Infinity;
    for (let x = 0; x <= 1000; x++) {
      const value = score(x, 777, 0.3, 2.5);
      assert.ok(value <= previous);
      assert.ok(value >= minimumScore(777, 0.3));
      previous = value;
    }
  });

  test('the minimum score is floor(r·S)', () => {
    assert.equal(minimumScore(1000, 0.25), 250);
    assert.equal(minimumScore(333, 0.5), 166);
    assert.equal(minimumScore(100, 0), 0);
    assert.equal(minimumScore(100, 1), 100);
  });
});
