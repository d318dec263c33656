const INT32_MAX = 2 ** 31 - 1;

/**
 * A positive id (int32, as GZCTF's) from wire text in plain decimal digits, or undefined. For the few
 * ids read outside a schema; `Number()` alone would take `0x10`, `1e3` or ` 16`.
 */
export function decimalId(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^[0-9]{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= INT32_MAX ? id : undefined;
}
