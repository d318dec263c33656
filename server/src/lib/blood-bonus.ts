/**
 * A game's blood bonus (reference §5.6): three per-mille values packed into one integer, first blood
 * in bits 20–29, second in 10–19, third in 0–9. 50/30/10 (+5 %, +3 %, +1 %) is the default; 0 means
 * no bonus. A blood earns `score × (1 + value / 1000)`.
 */
export interface BloodBonus {
  first: number;
  second: number;
  third: number;
}

/** The largest value one field may hold: 1000 ‰ doubles the score. */
export const MAX_BLOOD_BONUS_FIELD = 1000;

const FIELD_BITS = 10;
const FIELD_MASK = (1 << FIELD_BITS) - 1;

// The column default of games.blood_bonus (db/schema/games.ts) too: 50/30/10 per mille
// (+5 % / +3 % / +1 %), GZCTF's default.
export const DEFAULT_BLOOD_BONUS = (50 << 20) + (30 << 10) + 10;

export function packBloodBonus({ first, second, third }: BloodBonus): number {
  for (const value of [first, second, third]) {
    if (!Number.isInteger(value) || value < 0 || value > MAX_BLOOD_BONUS_FIELD) {
      throw new RangeError(`blood bonus fields must be integers from 0 to ${MAX_BLOOD_BONUS_FIELD}`);
    }
  }
  return first * 2 ** (2 * FIELD_BITS) + second * 2 ** FIELD_BITS + third;
}

export function unpackBloodBonus(value: number): BloodBonus {
  return {
    first: Math.floor(value / 2 ** (2 * FIELD_BITS)) & FIELD_MASK,
    second: Math.floor(value / 2 ** FIELD_BITS) & FIELD_MASK,
    third: value & FIELD_MASK,
  };
}

/**
 * Whether a packed value is one this server accepts: a non-negative integer using only the 30 bits of
 * the three fields, each at most 1000. GZCTF quietly falls back to the default for anything else; we
 * refuse it instead, so an admin never saves a bonus other than the one they see.
 */
export function isValidBloodBonus(value: number): boolean {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 2 ** (3 * FIELD_BITS)) return false;
  const { first, second, third } = unpackBloodBonus(value);
  return first <= MAX_BLOOD_BONUS_FIELD && second <= MAX_BLOOD_BONUS_FIELD && third <= MAX_BLOOD_BONUS_FIELD;
}

export type BloodRank = 'FirstBlood' | 'SecondBlood' | 'ThirdBlood';

/** A blood's bonus field, per mille (the default's for an invalid packed value). */
function bonusField(value: number, rank: BloodRank): number {
  const fields = unpackBloodBonus(isValidBloodBonus(value) ? value : DEFAULT_BLOOD_BONUS);
  return rank === 'FirstBlood' ? fields.first : rank === 'SecondBlood' ? fields.second : fields.third;
}

/**
 * What a blood earns on a challenge worth `score`: GZCTF's `Convert.ToInt32(score × factor)`, with
 * the factor (`field / 1000f + 1.0f`) and the product in single precision (reference §5.6), rounded
 * half to even as .NET does. In double a first blood on 950 would be exactly 997.5 and earn 998; in
 * float the factor is 1.0499999523 and the product 997.49994, so GZCTF's 997.
 */
export function bloodScore(score: number, value: number, rank: BloodRank): number {
  const factor = Math.fround(Math.fround(bonusField(value, rank) / 1000) + 1);
  const product = Math.fround(score * factor);
  const floor = Math.floor(product);
  if (product - floor === 0.5) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(product);
}
