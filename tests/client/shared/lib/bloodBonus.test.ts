import {
  BLOOD_BONUS_DIVISOR,
  BLOOD_BONUS_MASK,
  bloodMultiplier,
  decodeBloodBonus,
  DEFAULT_BLOOD_BONUS_VALUE,
  encodeBloodBonus,
} from '@/shared/lib/bloodBonus';

describe('the blood bonus codec (spec §3)', () => {
  it('packs three 10-bit fields, mask 1023, divisor 1000', () => {
    expect(BLOOD_BONUS_MASK).toBe(1023);
    expect(BLOOD_BONUS_DIVISOR).toBe(1000);
    expect(encodeBloodBonus({ first: 1, second: 0, third: 0 })).toBe(1 << 20);
    expect(encodeBloodBonus({ first: 0, second: 1, third: 0 })).toBe(1 << 10);
    expect(encodeBloodBonus({ first: 0, second: 0, third: 1 })).toBe(1);
  });

  it('defaults to 50, 30 and 10 per mille', () => {
    expect(DEFAULT_BLOOD_BONUS_VALUE).toBe((50 << 20) + (30 << 10) + 10);
    expect(decodeBloodBonus(DEFAULT_BLOOD_BONUS_VALUE)).toEqual({ first: 50, second: 30, third: 10 });
  });

  it('round-trips any valid triple', () => {
    for (const bonus of [
      { first: 0, second: 0, third: 0 },
      { first: 1000, second: 1000, third: 1000 },
      { first: 100, second: 70, third: 1 },
    ]) {
      expect(decodeBloodBonus(encodeBloodBonus(bonus))).toEqual(bonus);
    }
  });

  it('reads 0 as no bonus', () => {
    expect(decodeBloodBonus(0)).toEqual({ first: 0, second: 0, third: 0 });
  });

  it('falls back to the default for a field above 1000 or a nonsense value', () => {
    expect(decodeBloodBonus((1001 << 20) + (30 << 10) + 10)).toEqual({ first: 50, second: 30, third: 10 });
    expect(decodeBloodBonus(1023)).toEqual({ first: 50, second: 30, third: 10 });
    expect(decodeBloodBonus(-1)).toEqual({ first: 50, second: 30, third: 10 });
    expect(decodeBloodBonus(1.5)).toEqual({ first: 50, second: 30, third: 10 });
  });

  it('refuses to encode values outside 0–1000', () => {
    expect(() => encodeBloodBonus({ first: 1001, second: 0, third: 0 })).toThrow(RangeError);
    expect(() => encodeBloodBonus({ first: -1, second: 0, third: 0 })).toThrow(RangeError);
    expect(() => encodeBloodBonus({ first: 0.5, second: 0, third: 0 })).toThrow(RangeError);
  });
});

describe('bloodMultiplier', () => {
  it('is 0 for an unaccepted and 1 for a normal solve', () => {
    expect(bloodMultiplier('Unaccepted')).toBe(0);
    expect(bloodMultiplier('Normal')).toBe(1);
  });

  it('is 1 + value/1000 for a blood (reference §5.6)', () => {
    expect(bloodMultiplier('FirstBlood')).toBeCloseTo(1.05);
    expect(bloodMultiplier('SecondBlood')).toBeCloseTo(1.03);
    expect(bloodMultiplier('ThirdBlood')).toBeCloseTo(1.01);
    const custom = encodeBloodBonus({ first: 200, second: 100, third: 0 });
    expect(bloodMultiplier('FirstBlood', custom)).toBeCloseTo(1.2);
    expect(bloodMultiplier('SecondBlood', custom)).toBeCloseTo(1.1);
    expect(bloodMultiplier('ThirdBlood', custom)).toBe(1);
  });
});
