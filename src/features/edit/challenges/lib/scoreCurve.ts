/** The scoring parameters of a challenge (reference §5.6). */
export interface ScoreParams {
  originalScore: number;
  minScoreRate: number;
  difficulty: number;
}

/**
 * A challenge's score after `solves` accepted solves (reference §5.6, GZCTF's `CurrentScore`): the
 * full score for the first solver, then floor(S·(r + (1−r)·e^((1−x)/d))), falling towards S·r.
 * Parameters the server would refuse (no difficulty, a rate outside 0–1) give NaN, so the preview
 * shows nothing rather than a curve that will never exist.
 */
export function scoreAfter({ originalScore, minScoreRate, difficulty }: ScoreParams, solves: number): number {
  if (!(difficulty > 0) || !(minScoreRate >= 0 && minScoreRate <= 1) || !Number.isFinite(originalScore)) {
    return Number.NaN;
  }
  if (solves <= 1) return originalScore;
  return Math.floor(originalScore * (minScoreRate + (1 - minScoreRate) * Math.exp((1 - solves) / difficulty)));
}

/** The lowest score the challenge can fall to (the list's `minScore`): floor(r·S). */
export const minimumScore = ({ originalScore, minScoreRate }: ScoreParams) => Math.floor(originalScore * minScoreRate);

/**
 * Enough solve counts to see the curve settle: about five "difficulty lengths" (e^−5 < 1 %), at
 * least 20 and at most 200 points.
 */
export function curveRange(difficulty: number): number {
  if (!(difficulty > 0)) return 20;
  return Math.min(200, Math.max(20, Math.ceil(difficulty * 5) + 1));
}

/** The points of the preview chart: solve counts 1…n and the score each leaves. */
export function scoreCurve(params: ScoreParams, points = curveRange(params.difficulty)) {
  const solves = Array.from({ length: points }, (_, index) => index + 1);
  return { solves, scores: solves.map((count) => scoreAfter(params, count)) };
}
