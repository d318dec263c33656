import { createHash } from 'node:crypto';
import { isPowAnswer, powDigestHex, powToken, searchPow, solvePow } from '@/shared/captcha/pow';

const sha256 = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

/** Leading zero bits of a hex digest, counted independently of the solver's own code. */
const zeroBits = (hex: string) => {
  const bits = BigInt(`0x1${hex}`).toString(2).slice(1);
  return bits.length - bits.replace(/^0+/, '').length;
};

describe('HashPow (reference §5.15)', () => {
  it('hashes challenge ‖ answer exactly like SHA-256 over the 16 bytes', () => {
    for (const [challenge, answer] of [
      ['0000000000000000', '0000000000000000'],
      ['0123456789abcdef', 'fedcba9876543210'],
      ['ffffffffffffffff', '80000000deadbeef'],
    ] as const) {
      expect(powDigestHex(challenge, answer)).toBe(sha256(challenge + answer));
    }
  });

  it('solves a known small-difficulty challenge with an answer the server would accept', async () => {
    const challenge = '9f86d081884c7d65';
    const answer = await solvePow(challenge, 12);
    expect(answer).toMatch(/^[0-9a-f]{16}$/);
    // Checked the way the server checks it: SHA-256 of the raw bytes, leading zero bits.
    expect(zeroBits(sha256(challenge + answer))).toBeGreaterThanOrEqual(12);
    expect(isPowAnswer(challenge, answer, 12)).toBe(true);
    expect(powToken('0123456789abcdef01234567', answer)).toBe(`0123456789abcdef01234567:${answer}`);
  });

  it('finds the first answer in a range: prefix first, then a big-endian counter', () => {
    const challenge = 'a1b2c3d4e5f60718';
    const answer = searchPow({ challenge, difficulty: 8, prefix: 0x01020304, start: 0, count: 1 << 16 });
    expect(answer).not.toBeNull();
    expect(answer!.slice(0, 8)).toBe('01020304');
    const counter = parseInt(answer!.slice(8), 16);
    for (let earlier = 0; earlier < counter; earlier++) {
      const candidate = `01020304${earlier.toString(16).padStart(8, '0')}`;
      expect(zeroBits(sha256(challenge + candidate))).toBeLessThan(8);
    }
    expect(zeroBits(sha256(challenge + answer!))).toBeGreaterThanOrEqual(8);
  });

  it('rejects wrong answers and malformed input', () => {
    const challenge = '0011223344556677';
    const wrong = Array.from({ length: 64 }, (_, index) => index.toString(16).padStart(16, '0')).find(
      (candidate) => zeroBits(sha256(challenge + candidate)) < 10,
    )!;
    expect(isPowAnswer(challenge, wrong, 10)).toBe(false);
    expect(() => isPowAnswer('xyz', wrong, 1)).toThrow();
    expect(() => searchPow({ challenge, difficulty: 99, prefix: 0, start: 0, count: 1 })).toThrow();
  });

  it('reports progress between slices and can be stopped', async () => {
    const seen: number[] = [];
    await expect(
      solvePow('0000000000000000', 40, (tried) => {
        seen.push(tried);
        if (tried >= 3 * (1 << 14)) throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(seen).toEqual([1 << 14, 2 << 14, 3 << 14]);
  });
});
