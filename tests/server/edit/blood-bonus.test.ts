import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  bloodFactor,
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

  test('a blood multiplies by 1 + field/1000; an invalid value counts as the default', () => {
    assert.equal(bloodFactor(DEFAULT_BLOOD_BONUS, 'FirstBlood'), 1.05);
    assert.equal(bloodFactor(DEFAULT_BLOOD_BONUS, 'SecondBlood'), 1.03);
    assert.equal(bloodFactor(DEFAULT_BLOOD_BONUS, 'ThirdBlood'), 1.01);
    assert.equal(bloodFactor(0, 'FirstBlood'), 1);
    assert.equal(bloodFactor(packBloodBonus({ first: 1000, second: 0, third: 0 }), 'FirstBlood'), 2);
    assert.equal(bloodFactor(1023, 'ThirdBlood'), 1.01);
  });
});
