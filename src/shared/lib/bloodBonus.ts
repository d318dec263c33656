/**
 * The blood bonus of a game (spec §3, reference §5.6): three per-mille values packed into one integer,
 * 10 bits each: first blood in bits 20–29, second in bits 10–19, third in bits 0–9.
 *
 * Reading of the multiplier: the spec's "a blood is value/1000" names the bonus part; the factor a
 * blood solve earns is 1 + value/1000 (reference §5.6, "Factor = 1 + field / 1000"), so the default
 * 50/30/10 gives ×1.05, ×1.03 and ×1.01.
 */
export const BLOOD_BONUS_MASK = 1023;
export const BLOOD_BONUS_DIVISOR = 1000;
const SHIFT_SECOND = 2 ** 10;
const SHIFT_FIRST = 2 ** 20;

export interface BloodBonus {
  first: number;
  second: number;
  third: number;
}

export const DEFAULT_BLOOD_BONUS: Readonly<BloodBonus> = { first: 50, second: 30, third: 10 };

const isField = (value: number) => Number.isInteger(value) && value >= 0 && value <= BLOOD_BONUS_DIVISOR;

/** Packs three per-mille values (each an integer 0–1000) into the stored integer. */
export function encodeBloodBonus({ first, second, third }: BloodBonus): number {
  if (![first, second, third].every(isField)) {
    throw new RangeError('each blood bonus must be an integer from 0 to 1000 (per mille)');
  }
  return first * SHIFT_FIRST + second * SHIFT_SECOND + third;
}

export const DEFAULT_BLOOD_BONUS_VALUE = encodeBloodBonus(DEFAULT_BLOOD_BONUS);

/**
 * Unpacks the stored integer. As on the server, a value whose fields exceed 1000 (or that is not a
 * non-negative integer at all) stands for the default; 0 means no bonus.
 */
export function decodeBloodBonus(value: number): BloodBonus {
  if (!Number.isSafeInteger(value) || value < 0) return { ...DEFAULT_BLOOD_BONUS };
  const decoded = {
    first: Math.floor(value / SHIFT_FIRST) & BLOOD_BONUS_MASK,
    second: Math.floor(value / SHIFT_SECOND) & BLOOD_BONUS_MASK,
    third: value & BLOOD_BONUS_MASK,
  };
  return Object.values(decoded).every(isField) ? decoded : { ...DEFAULT_BLOOD_BONUS };
}

/** Submission rank (`SubmissionType` on the wire). */
export type SubmissionRank = 'Unaccepted' | 'FirstBlood' | 'SecondBlood' | 'ThirdBlood' | 'Normal';

/** What a solve's score is multiplied by: 0 unaccepted, 1 normal, 1 + bonus/1000 for a blood. */
export function bloodMultiplier(rank: SubmissionRank, value: number = DEFAULT_BLOOD_BONUS_VALUE): number {
  const bonus = decodeBloodBonus(value);
  switch (rank) {
    case 'Unaccepted':
      return 0;
    case 'Normal':
      return 1;
    case 'FirstBlood':
      return 1 + bonus.first / BLOOD_BONUS_DIVISOR;
    case 'SecondBlood':
      return 1 + bonus.second / BLOOD_BONUS_DIVISOR;
    case 'ThirdBlood':
      return 1 + bonus.third / BLOOD_BONUS_DIVISOR;
  }
}
