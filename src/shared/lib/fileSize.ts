const UNITS = ['B', 'KiB', 'MiB', 'GiB'] as const;
const STEP = 1024;

/**
 * A byte count in the largest binary unit that keeps the number at or above 1, always with two
 * decimals (spec §5): `formatFileSize(1536) === '1.50 KiB'`, `formatFileSize(12) === '12.00 B'`.
 * GiB is the largest unit, so 2 TiB shows as `2048.00 GiB`.
 */
export function formatFileSize(bytes: number): string {
  const size = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  let unit = 0;
  let value = size;
  while (value >= STEP && unit < UNITS.length - 1) {
    value /= STEP;
    unit += 1;
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`;
}
