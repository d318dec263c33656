import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  bloodScore,
  DEFAULT_BLOOD_BONUS,
  isValidBloodBonus,
  packBloodBonus,
  unpackBloodBonus,
} from '../../../server/src/lib/blood-bonus';

describe('blood bonus packing (reference §5.6)', () => {
  test('the default is 50/30/10 per mille, (50<<20)+(30<<10)+10', () => {
    assert.equal(DEFAULT_BLOOD_BONUS, (50 << 20) + (30 << 10) + 10);
    assert.deepEqual(unpackBloodBonus(DEFAULT_BLOOD_BONUS), { first: 50, second: 30, third: 10 });
    assert.equal(packBloodBonus({ first: 50, second: 30, third: 10 }), DEFAULT_BLOOD_BONUS);
  });

  test('pack and unpack are inverse over the whole range', () => {
    for (const fields of [
      { first: 0, second: 0, third: 0 },
      { first: 1000, second: 1000, third: 1000 },
      { first: 1, second: 999, third: 500 },
      { first: 1000, second: 0, third: 1 },
    ]) {
      const packed = packBloodBonus(fields);
      assert.deepEqual(unpackBloodBonus(packed), fields);
      assert.ok(isValidBloodBonus(packed));
    }
  });

  test('refuses fields over 1000, negatives, fractions and stray high bits', () => {
    assert.throws(() => packBloodBonus({ first: 1001, second: 0, third: 0 }), RangeError);
    assert.throws(() => packBloodBonus({ first: 0, second: -1, third: 0 }), RangeError);
    assert.throws(() => packBloodBonus({ first: 0, second: 0, third: 1.5 }), RangeError);
    assert.equal(isValidBloodBonus((1001 << 20) + 0), false);
    assert.equal(isValidBloodBonus(1023), false);
    assert.equal(isValidBloodBonus(-1), false);
    assert.equal(isValidBloodBonus(2 ** 30), false);
    assert.equal(isValidBloodBonus(0.5), false);
    assert.equal(isValidBloodBonus(0), true);
  });

  test('a blood earns score × (1 + field/1000) in single precision, rounded half to even; an invalid value counts as the default', () => {
    // GZCTF: Convert.ToInt32(CurrentScore * (field / 1000f + 1.0f)), all in float.
    assert.equal(bloodScore(1000, DEFAULT_BLOOD_BONUS, 'FirstBlood'), 1050);
    assert.equal(bloodScore(1000, DEFAULT_BLOOD_BONUS, 'SecondBlood'), 1030);
    assert.equal(bloodScore(1000, DEFAULT_BLOOD_BONUS, 'ThirdBlood'), 1010);
    assert.equal(bloodScore(1001, DEFAULT_BLOOD_BONUS, 'FirstBlood'), 1051);
    assert.equal(bloodScore(777, 0, 'FirstBlood'), 777);
    assert.equal(bloodScore(500, packBloodBonus({ first: 1000, second: 0, third: 0 }), 'FirstBlood'), 1000);
    assert.equal(bloodScore(1000, 1023, 'ThirdBlood'), 1010);
  });

  test('the product is taken in float, as GZCTF: 950 × 1.05 earns 997, where the exact 997.5 would round to 998', () => {
    // 1.05 in float is 1.0499999523; 950 × that is 997.49995, whose nearest float is 997.49994.
    assert.equal(bloodScore(950, DEFAULT_BLOOD_BONUS, 'FirstBlood'), 997);
    const float = (score: number) => Math.round(Math.fround(score * Math.fround(1.05)));
    for (const score of [30, 110, 190]) {
      assert.equal(bloodScore(score, DEFAULT_BLOOD_BONUS, 'FirstBlood'), float(score));
      assert.notEqual(float(score), Math.round(score * 1.05));
    }
  });
});
