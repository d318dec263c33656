/**
 * Dynamic challenge scoring (reference §5.6), shared by the admin views and the scoreboard.
 *
 * With S the original score, r the minimum score rate, d the difficulty and x the accepted count, a
 * challenge is worth S while x ≤ 1 and floor(S · (r + (1 − r) · e^((1 − x) / d))) afterwards: it decays
 * from S towards r · S, faster for a smaller d. Every solver gets the current value (retroactively).
 */
export interface ScoreParameters {
  originalScore: number;
  minScoreRate: number;
  difficulty: number;
  acceptedCount: number;
}

export function challengeScore({ originalScore, minScoreRate, difficulty, acceptedCount }: ScoreParameters): number {
  if (acceptedCount <= 1) return originalScore;
  const decay = Math.exp((1 - acceptedCount) / difficulty);
  return Math.floor(originalScore * (minScoreRate + (1 - minScoreRate) * decay));
}

/** The floor the score decays towards, as the admin list shows it: floor(r · S). */
export function minimumScore(originalScore: number, minScoreRate: number): number {
  return Math.floor(originalScore * minScoreRate);
}
