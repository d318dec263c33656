/**
 * HashPow, GZCTF's proof-of-work captcha (reference §5.15): find an 8-byte answer such that
 * SHA-256(challenge bytes ‖ answer bytes) starts with `difficulty` zero bits. The answer is 4 random
 * bytes and a 4-byte big-endian counter, sent as `"{id}:{16 hex digits}"`.
 *
 * The message is always 16 bytes, one SHA-256 block, so the search hashes that block directly on
 * 32-bit words instead of going through a general (and allocating) hash function: WebCrypto is
 * asynchronous per digest, far too slow for the 2^18 digests of the default difficulty.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
// The initial hash value, one constant per state word.
const H0 = 0x6a09e667,
  H1 = 0xbb67ae85,
  H2 = 0x3c6ef372,
  H3 = 0xa54ff53a,
  H4 = 0x510e527f,
  H5 = 0x9b05688c,
  H6 = 0x1f83d9ab,
  H7 = 0x5be0cd19;

/** Largest difficulty the server hands out (GZCTF clamps it to 8–48). */
export const MAX_POW_DIFFICULTY = 48;
/** The answer space per random prefix: the 4-byte counter. */
const COUNTER_SPACE = 2 ** 32;

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/**
 * SHA-256 of four big-endian words (16 bytes), written into `out` as eight words. `w` is a
 * 64-word scratch buffer the caller reuses, so the hot loop allocates nothing.
 */
function digestWords(m0: number, m1: number, m2: number, m3: number, w: Uint32Array, out: Uint32Array): void {
  w[0] = m0;
  w[1] = m1;
  w[2] = m2;
  w[3] = m3;
  w[4] = 0x80000000; // the padding bit right after the message
  w.fill(0, 5, 15);
  w[15] = 128; // message length in bits
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = H0,
    b = H1,
    c = H2,
    d = H3,
    e = H4,
    f = H5,
    g = H6,
    h = H7;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  out[0] = H0 + a;
  out[1] = H1 + b;
  out[2] = H2 + c;
  out[3] = H3 + d;
  out[4] = H4 + e;
  out[5] = H5 + f;
  out[6] = H6 + g;
  out[7] = H7 + h;
}

/** Leading zero bits of a digest given as big-endian words. */
function leadingZeroBitsOfWords(words: Uint32Array): number {
  let bits = 0;
  for (const word of words) {
    if (word !== 0) return bits + Math.clz32(word);
    bits += 32;
  }
  return bits;
}

function wordsOfHex(hex: string, count: number): number[] {
  if (!new RegExp(`^[0-9a-f]{${count * 8}}$`, 'i').test(hex)) {
    throw new Error(`expected ${count * 8} hex digits, got "${hex}"`);
  }
  return Array.from({ length: count }, (_, index) => parseInt(hex.slice(index * 8, index * 8 + 8), 16) >>> 0);
}

const hexOfWord = (word: number) => (word >>> 0).toString(16).padStart(8, '0');

/** SHA-256(challenge ‖ answer) as 64 hex digits; both arguments are 16 hex digits (8 bytes). */
export function powDigestHex(challengeHex: string, answerHex: string): string {
  const [c0 = 0, c1 = 0] = wordsOfHex(challengeHex, 2);
  const [a0 = 0, a1 = 0] = wordsOfHex(answerHex, 2);
  const out = new Uint32Array(8);
  digestWords(c0, c1, a0, a1, new Uint32Array(64), out);
  return Array.from(out, hexOfWord).join('');
}

/** Whether `answerHex` solves the challenge: the digest starts with at least `difficulty` zero bits. */
export function isPowAnswer(challengeHex: string, answerHex: string, difficulty: number): boolean {
  const [c0 = 0, c1 = 0] = wordsOfHex(challengeHex, 2);
  const [a0 = 0, a1 = 0] = wordsOfHex(answerHex, 2);
  const out = new Uint32Array(8);
  digestWords(c0, c1, a0, a1, new Uint32Array(64), out);
  return leadingZeroBitsOfWords(out) >= difficulty;
}

export interface PowSearch {
  challenge: string;
  difficulty: number;
  /** The random first half of the answer (one 32-bit word). */
  prefix: number;
  /** First counter value to try. */
  start: number;
  /** How many counter values to try at most. */
  count: number;
}

/**
 * Tries counters `start … start + count − 1` with the given prefix; the answer as 16 hex digits, or
 * null when none in the range works (the caller continues from `start + count`). Callers search in
 * slices so a progress report or a yield to the event loop can come between them.
 */
export function searchPow({ challenge, difficulty, prefix, start, count }: PowSearch): string | null {
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > MAX_POW_DIFFICULTY) {
    throw new Error(`unsupported difficulty ${difficulty}`);
  }
  const [c0 = 0, c1 = 0] = wordsOfHex(challenge, 2);
  const w = new Uint32Array(64);
  const out = new Uint32Array(8);
  const end = Math.min(start + count, COUNTER_SPACE);
  for (let counter = start; counter < end; counter++) {
    digestWords(c0, c1, prefix | 0, counter | 0, w, out);
    if (leadingZeroBitsOfWords(out) >= difficulty) return hexOfWord(prefix) + hexOfWord(counter);
  }
  return null;
}

/** A fresh random prefix, so two visitors solving the same challenge never send the same answer. */
export function randomPowPrefix(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** Counter values one search slice covers: a few milliseconds of work. */
export const POW_SLICE = 1 << 14;

/**
 * Searches slice after slice until an answer turns up; `between` runs after each unsuccessful slice
 * (to report progress, yield, or give up by throwing). With 2^32 counters per prefix and difficulty
 * ≤ 48 the prefix is renewed when its counters run out.
 */
export async function solvePow(
  challenge: string,
  difficulty: number,
  between: (tried: number) => void | Promise<void> = () => undefined,
): Promise<string> {
  let prefix = randomPowPrefix();
  let start = 0;
  let tried = 0;
  for (;;) {
    const answer = searchPow({ challenge, difficulty, prefix, start, count: POW_SLICE });
    if (answer) return answer;
    tried += POW_SLICE;
    start += POW_SLICE;
    if (start >= COUNTER_SPACE) {
      prefix = randomPowPrefix();
      start = 0;
    }
    await between(tried);
  }
}

/** The captcha token HashPow expects in the `challenge` field of a form. */
export const powToken = (id: string, answer: string) => `${id}:${answer}`;
