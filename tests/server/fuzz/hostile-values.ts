import fc from 'fast-check';

/**
 * The hostile values the contract fuzzer mixes into requests: odd text, wrong types, huge and deep
 * values, and ids no route should take.
 */

// ---------- hostile values ----------

/** Strings a parser or a database may choke on. */
const ODD_TEXT = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFF',
  '\u202Eevil\u202C',
  '\u200F\u200E\u061C',
  '😀👨‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0302\u0303\u0304\u0305\u0306\u0307',
  '\uFEFF',
  '\uFFFF\uFFFE',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '${7*7}{{7*7}}',
  ' ',
  '',
];

const oddUnit = fc.oneof(
  fc.constantFrom(...ODD_TEXT.filter((text) => text.length > 0)),
  fc.string({ unit: 'binary', maxLength: 3 }),
);

/** Text mixing odd code units (lone surrogates, NUL, RTL marks, emoji, combining marks) with ordinary ones. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_TEXT),
  fc.array(oddUnit, { maxLength: 12 }).map((parts) => parts.join('')),
);

const HUGE_NUMBERS = [
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  1e20,
  -0,
  0.5,
  5e-324,
];

/** Big but under the default 1 MiB body limit, so they reach the validator and the handler. */
const huge: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HUGE_NUMBERS),
  fc.integer({ min: 1_000, max: 200_000 }).map((length) => 'A'.repeat(length)),
  fc.integer({ min: 100, max: 20_000 }).map((length) => Array.from({ length }, (_, index) => index)),
  fc.integer({ min: 100, max: 5_000 }).map((length) => Array.from({ length }, () => 'x')),
  fc
    .integer({ min: 100, max: 5_000 })
    .map((length) => Object.fromEntries(Array.from({ length }, (_, index) => [`k${index}`, index]))),
);

/** A value nested `depth` levels deep in arrays or objects. */
function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

const deep: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 20, max: 3_000 }), fc.constantFrom('array' as const, 'object' as const))
  .map(([depth, kind]) => nested(depth, kind));

/** Any JSON value of the wrong shape: other types, edge numbers, odd text, huge or deep values. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, '', '12345', [], {}, [1], { a: 1 }) },
  { weight: 2, arbitrary: oddString },
  { weight: 2, arbitrary: huge },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>({ __proto__: { admin: true } }, { constructor: { prototype: { x: 1 } } }),
  },
);

// ---------- ids in paths and queries ----------

/** Ids no route should take: other notations, out of range, traversal, encoded NUL, very long. */
const HOSTILE_IDS = [
  '-1',
  '0',
  '0x10',
  '1e9',
  '99999999999999999999',
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '1.5',
  '+1',
  '%201',
  '01',
  'NaN',
  'Infinity',
  'true',
  '..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f',
  '%00',
  '1%00',
  '%ff%fe',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%',
  '%zz',
  '00000000-0000-0000-0000-000000000000',
  'A'.repeat(5_000),
  '1'.repeat(400),
];

export const hostileId: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
  { weight: 1, arbitrary: oddString.map((text) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);
