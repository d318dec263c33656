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

/** The score multiplier of a blood: 1 + field / 1000 (the default for an invalid packed value). */
export function bloodFactor(value: number, rank: BloodRank): number {
  const fields = unpackBloodBonus(isValidBloodBonus(value) ? value : DEFAULT_BLOOD_BONUS);
  const field = rank === 'FirstBlood' ? fields.first : rank === 'SecondBlood' ? fields.second : fields.third;
  return 1 + field / 1000;
}
