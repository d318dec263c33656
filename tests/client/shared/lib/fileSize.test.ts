import { formatFileSize } from '@/shared/lib/fileSize';

describe('formatFileSize', () => {
  it.each([
    [0, '0.00 B'],
    [12, '12.00 B'],
    [1023, '1023.00 B'],
    [1024, '1.00 KiB'],
    [1536, '1.50 KiB'],
    [1024 * 1024 - 1, '1024.00 KiB'],
    [5 * 1024 * 1024, '5.00 MiB'],
    [1.25 * 1024 ** 3, '1.25 GiB'],
    [2048 * 1024 ** 3, '2048.00 GiB'],
  ])('shows %d bytes as %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('treats nonsense as zero', () => {
    expect(formatFileSize(-5)).toBe('0.00 B');
    expect(formatFileSize(Number.NaN)).toBe('0.00 B');
  });
});
