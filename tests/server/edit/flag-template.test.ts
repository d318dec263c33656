import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_TEST_FLAG,
  generateDynamicFlag,
  generateTestFlag,
  isTrivialTemplate,
  leetEntropy,
  leetFlag,
  teamHash,
  templateEntropy,
} from '../../../server/src/lib/flag-template';
import { teamHashSalt } from '../../../server/src/lib/game-keys';

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('leet transform (reference §5.7)', () => {
  test('entropy sums log2 of each leetable character choice inside the braces only', () => {
    // a: Aa4 (3), b: Bb68 (4), c: Cc (2) → log2(3) + 2 + 1
    assert.equal(leetEntropy('flag{abc}'), Math.log2(3) + 2 + 1);
    assert.equal(leetEntropy('abc'), 0, 'nothing outside a { or ] region');
    assert.equal(leetEntropy('flag{___}'), 0);
    // the complex map has more choices: a → Aa4@
    assert.equal(leetEntropy('flag{a}', true), 2);
    // text between [ and ] (a placeholder) is not leeted
    assert.equal(leetEntropy('flag{a[TEAM_HASH]b}'), Math.log2(3) + 2);
  });

  test('the transform keeps the wrapper, maps each character to a look-alike and spaces to _', () => {
    for (let i = 0; i < 50; i++) {
      const flag = leetFlag('flag{hello world}');
      assert.match(flag, /^flag\{[Hh][Ee3][Ll1I][Ll1I][Oo0]_[Ww][Oo0][Rr][Ll1I][Dd]\}$/);
    }
    assert.equal(leetFlag('no braces here'), 'no_braces_here');
  });

  test('a template is too trivial without [GUID]/[TEAM_HASH] and under 32 bits of leet', () => {
    assert.equal(isTrivialTemplate('flag{hello}'), true);
    assert.ok(templateEntropy('flag{hello}') < 32);
    assert.equal(isTrivialTemplate('flag{[GUID]}'), false);
    assert.equal(isTrivialTemplate('flag{[TEAM_HASH]}'), false);
    assert.equal(isTrivialTemplate(''), false, 'empty means flag{GUID}');
    assert.equal(isTrivialTemplate(null), false);
    const long = 'flag{this_is_a_rather_long_leet_flag_text}';
    assert.ok(templateEntropy(long) >= 32);
    assert.equal(isTrivialTemplate(long), false);
    // the complex map adds entropy: a template can pass with [CLEET] that fails without it
    const borderline = 'flag{aaaaaaaaaaaaaaaa}';
    assert.ok(templateEntropy(borderline) < 32);
    assert.equal(isTrivialTemplate(borderline), true);
    assert.equal(templateEntropy(`[CLEET]${borderline}`), 32);
    assert.equal(isTrivialTemplate(`[CLEET]${borderline}`), false);
  });
});

describe('dynamic flags (reference §5.7)', () => {
  test('an empty template gives flag{GUID}', () => {
    assert.match(generateDynamicFlag(null, 'x'), new RegExp(`^flag\\{${GUID.source}\\}$`));
    assert.match(generateDynamicFlag('', 'x'), new RegExp(`^flag\\{${GUID.source}\\}$`));
  });

  test('[GUID] is replaced without leet', () => {
    const flag = generateDynamicFlag('flag{hello_[GUID]}', 'x');
    assert.match(flag, new RegExp(`^flag\\{hello_${GUID.source}\\}$`));
  });

  test('[TEAM_HASH] is replaced, and the rest is leeted only after [LEET]', () => {
    assert.equal(generateDynamicFlag('flag{hello_[TEAM_HASH]}', 'abcdef012345'), 'flag{hello_abcdef012345}');
    const leeted = generateDynamicFlag('[LEET]flag{hello_[TEAM_HASH]}', 'abcdef012345');
    assert.match(leeted, /^flag\{[Hh][Ee3][Ll1I][Ll1I][Oo0]_abcdef012345\}$/);
  });

  test('a template without placeholders is leeted throughout', () => {
    assert.match(generateDynamicFlag('flag{hello}', 'x'), /^flag\{[Hh][Ee3][Ll1I][Ll1I][Oo0]\}$/);
  });

  test('the test flag uses TestTeamHash, or the fixed flag without a template', () => {
    assert.equal(generateTestFlag(null), DEFAULT_TEST_FLAG);
    assert.equal(generateTestFlag('flag{[TEAM_HASH]}'), 'flag{TestTeamHash}');
  });

  test('the team hash is 12 hex digits, stable per team and challenge', () => {
    const salt = teamHashSalt('c2VjcmV0');
    assert.match(salt, /^[0-9a-f]{64}$/);
    const hash = teamHash(salt, 7, '3:signature');
    assert.match(hash, /^[0-9a-f]{12}$/);
    assert.equal(teamHash(salt, 7, '3:signature'), hash);
    assert.notEqual(teamHash(salt, 8, '3:signature'), hash);
    assert.notEqual(teamHash(salt, 7, '4:signature'), hash);
  });
});
