import { curveRange, minimumScore, scoreAfter, scoreCurve } from '@/features/edit/challenges/lib/scoreCurve';

const params = { originalScore: 1000, minScoreRate: 0.25, difficulty: 5 };

describe('the score curve', () => {
  it('gives the full score to the first solver and before anyone solves', () => {
    expect(scoreAfter(params, 0)).toBe(1000);
    expect(scoreAfter(params, 1)).toBe(1000);
  });

  it('follows floor(S·(r + (1−r)·e^((1−x)/d))) after that', () => {
    // x = 2: 1000·(0.25 + 0.75·e^(−0.2)) = 864.05…
    expect(scoreAfter(params, 2)).toBe(864);
    // x = 6: 1000·(0.25 + 0.75·e^(−1)) = 525.90…
    expect(scoreAfter(params, 6)).toBe(525);
    expect(scoreAfter({ originalScore: 500, minScoreRate: 0.5, difficulty: 3 }, 4)).toBe(
      Math.floor(500 * (0.5 + 0.5 * Math.exp(-1))),
    );
  });

  it('falls monotonically towards the minimum and never below it', () => {
    const { scores } = scoreCurve(params, 200);
    for (let i = 1; i < scores.length; i += 1) expect(scores[i]!).toBeLessThanOrEqual(scores[i - 1]!);
    expect(scores.at(-1)).toBe(minimumScore(params));
    expect(minimumScore(params)).toBe(250);
  });

  it('falls faster for a smaller difficulty', () => {
    expect(scoreAfter({ ...params, difficulty: 1 }, 4)).toBeLessThan(scoreAfter({ ...params, difficulty: 10 }, 4));
  });

  it('has no value for parameters the server refuses', () => {
    expect(scoreAfter({ ...params, difficulty: 0 }, 3)).toBeNaN();
    expect(scoreAfter({ ...params, minScoreRate: 1.5 }, 3)).toBeNaN();
    expect(scoreAfter({ ...params, originalScore: Number.NaN }, 3)).toBeNaN();
  });

  it('draws enough solve counts for the curve to settle', () => {
    expect(curveRange(5)).toBe(26);
    expect(curveRange(1)).toBe(20);
    expect(curveRange(1000)).toBe(200);
    const curve = scoreCurve(params);
    expect(curve.solves[0]).toBe(1);
    expect(curve.solves).toHaveLength(26);
    expect(curve.scores).toHaveLength(26);
  });
});
