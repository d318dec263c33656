import { createHash, randomInt, randomUUID } from 'node:crypto';

/**
 * Dynamic flags of DynamicContainer challenges (reference §5.7): how a template becomes a team's
 * flag, the test flag of admin test containers, and the rule that refuses guessable templates.
 *
 * Templates:
 * - empty: `flag{<random GUID>}`;
 * - containing `[GUID]`: each `[GUID]` becomes one fresh GUID, nothing else changes;
 * - containing `[TEAM_HASH]`: it becomes 12 hex digits derived from the game key, the challenge and
 *   the team's token; the rest is leet-transformed only after a `[LEET]` (or `[CLEET]`, the complex
 *   map) prefix, which is dropped;
 * - anything else: leet-transformed throughout (after dropping a `[LEET]`/`[CLEET]` prefix; GZCTF
 *   would leave such a prefix in the flag, which can only be a mistake).
 *
 * The leet transform touches only the text between `{` or `]` and the next `}` or `[`, so the
 * `flag{` wrapper and the placeholders stay put; spaces become `_` everywhere.
 */

// Per-character choices, as GZCTF 1.4.0 has them (a letter's upper and lower case plus look-alikes).
const NORMAL_MAP: Readonly<Record<string, string>> = {
  A: 'Aa4',
  B: 'Bb68',
  C: 'Cc',
  D: 'Dd',
  E: 'Ee3',
  F: 'Ff1',
  G: 'Gg69',
  H: 'Hh',
  I: 'Ii1l',
  J: 'Jj',
  K: 'Kk',
  L: 'Ll1I',
  M: 'Mm',
  N: 'Nn',
  O: 'Oo0',
  P: 'Pp',
  Q: 'Qq9',
  R: 'Rr',
  S: 'Ss5',
  T: 'Tt7',
  U: 'Uu',
  V: 'Vv',
  W: 'Ww',
  X: 'Xx',
  Y: 'Yy',
  Z: 'Zz2',
  '0': '0oO',
  '1': '1lI',
  '2': '2zZ',
  '3': '3eE',
  '4': '4aA',
  '5': '5Ss',
  '6': '6Gb',
  '7': '7T',
  '8': '8bB',
  '9': '9g',
};

const COMPLEX_MAP: Readonly<Record<string, string>> = {
  ...NORMAL_MAP,
  A: 'Aa4@',
  B: 'Bb6&',
  C: 'Cc(',
  I: 'Ii1l!',
  L: 'Ll1I!',
  O: 'Oo0#',
  S: 'Ss5$',
  Z: 'Zz2?',
  '0': '0oO#',
  '1': '1lI|',
  '2': '2zZ?',
  '8': '8B&',
};

export const GUID_PLACEHOLDER = '[GUID]';
export const TEAM_HASH_PLACEHOLDER = '[TEAM_HASH]';
const LEET_PREFIX = '[LEET]';
const COMPLEX_LEET_PREFIX = '[CLEET]';

/** Below this many bits of leet randomness a template without placeholders is "too trivial". */
export const MIN_TEMPLATE_ENTROPY_BITS = 32;

/** What admin test containers get when the challenge has no template. */
export const DEFAULT_TEST_FLAG = 'flag{GZCTF_dynamic_flag_test}';
/** Stands in for `[TEAM_HASH]` in test flags. */
export const TEST_TEAM_HASH = 'TestTeamHash';

interface LeetSpec {
  body: string;
  /** Whether the body is leet-transformed, and with which map. */
  map: Readonly<Record<string, string>> | undefined;
}

function leetSpec(template: string): LeetSpec {
  const hasTeamHash = template.includes(TEAM_HASH_PLACEHOLDER);
  if (template.startsWith(COMPLEX_LEET_PREFIX)) {
    return { body: template.slice(COMPLEX_LEET_PREFIX.length), map: COMPLEX_MAP };
  }
  if (template.startsWith(LEET_PREFIX)) return { body: template.slice(LEET_PREFIX.length), map: NORMAL_MAP };
  return { body: template, map: hasTeamHash ? undefined : NORMAL_MAP };
}

/** Walks the leet regions: calls `leet` for each character inside one, `plain` for the rest. */
function walk(text: string, onLeet: (c: string) => string, onPlain: (c: string) => string): string {
  let inside = false;
  let out = '';
  for (const c of text) {
    if (c === '{' || c === ']') {
      inside = true;
      out += c;
    } else if (inside && (c === '}' || c === '[')) {
      inside = false;
      out += c;
    } else {
      out += inside ? onLeet(c) : onPlain(c);
    }
  }
  return out;
}

const spaceToUnderscore = (c: string) => (c === ' ' ? '_' : c);

/** Replaces each leetable character of the leet regions by a random look-alike. */
export function leetFlag(text: string, complex = false): string {
  const map = complex ? COMPLEX_MAP : NORMAL_MAP;
  return walk(
    text,
    (c) => {
      const choices = map[c.toUpperCase()];
      return choices ? choices[randomInt(choices.length)]! : spaceToUnderscore(c);
    },
    spaceToUnderscore,
  );
}

/** Bits of randomness the leet transform adds to a text: Σ log2(number of choices). */
export function leetEntropy(text: string, complex = false): number {
  const map = complex ? COMPLEX_MAP : NORMAL_MAP;
  let bits = 0;
  walk(
    text,
    (c) => {
      const choices = map[c.toUpperCase()];
      if (choices) bits += Math.log2(choices.length);
      return c;
    },
    (c) => c,
  );
  return bits;
}

/** The entropy a template's flags get from leet alone (0 when the template is not leet-transformed). */
export function templateEntropy(template: string): number {
  const { body, map } = leetSpec(template);
  return map ? leetEntropy(body, map === COMPLEX_MAP) : 0;
}

/**
 * A DynamicContainer template must make flags that other teams cannot guess: it needs `[GUID]` or
 * `[TEAM_HASH]`, or enough leet randomness (≥ 32 bits). An empty template is fine (a GUID flag).
 */
export function isTrivialTemplate(template: string | null | undefined): boolean {
  if (!template) return false;
  if (template.includes(GUID_PLACEHOLDER) || template.includes(TEAM_HASH_PLACEHOLDER)) return false;
  return templateEntropy(template) < MIN_TEMPLATE_ENTROPY_BITS;
}

/** GZCTF's 8-4-4-4-12 form (its `{...:D}`), lower-case hex. */
const guid = () => randomUUID();
const GUID_LENGTH = 36;
const TEAM_HASH_LENGTH = 12;

/**
 * The longest answer a submission may carry (reference: flag ≤ 127), measured as `String.length`;
 * `submissions/submit.service.ts` refuses longer answers, so a template must not make longer flags.
 */
export const MAX_FLAG_LENGTH = 127;

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/**
 * The longest flag a template can make, in UTF-16 code units as submissions are measured. Leet keeps
 * every character's length and never makes a placeholder, so only the placeholders grow the text.
 */
export function longestFlagLength(template: string | null | undefined): number {
  if (!template) return `flag{${guid()}}`.length;
  if (template.includes(GUID_PLACEHOLDER)) {
    return template.length + occurrences(template, GUID_PLACEHOLDER) * (GUID_LENGTH - GUID_PLACEHOLDER.length);
  }
  const { body } = leetSpec(template);
  const hashLength = Math.max(TEAM_HASH_LENGTH, TEST_TEAM_HASH.length);
  return body.length + occurrences(body, TEAM_HASH_PLACEHOLDER) * (hashLength - TEAM_HASH_PLACEHOLDER.length);
}

/** A team's flag from a template; `teamHashValue` replaces `[TEAM_HASH]` (see `teamHash`). */
export function generateDynamicFlag(template: string | null | undefined, teamHashValue: string): string {
  if (!template) return `flag{${guid()}}`;
  if (template.includes(GUID_PLACEHOLDER)) return template.split(GUID_PLACEHOLDER).join(guid());
  const { body, map } = leetSpec(template);
  const flag = map ? leetFlag(body, map === COMPLEX_MAP) : body;
  return flag.split(TEAM_HASH_PLACEHOLDER).join(teamHashValue);
}

/** The flag of an admin test container (reference §5.7). */
export function generateTestFlag(template: string | null | undefined): string {
  return template ? generateDynamicFlag(template, TEST_TEAM_HASH) : DEFAULT_TEST_FLAG;
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The 12 characters that replace `[TEAM_HASH]` for one team and challenge: characters 12–23 of
 * SHA-256(SHA-256(salt + "::" + challengeId) + "::" + participationToken), salt from `teamHashSalt`.
 */
export function teamHash(salt: string, challengeId: number, participationToken: string): string {
  return sha256Hex(`${sha256Hex(`${salt}::${challengeId}`)}::${participationToken}`).slice(12, 24);
}
