import { compressToUTF16, decompressFromUTF16 } from 'lz-string';
import { createTransform } from 'redux-persist';

/**
 * Keeps each persisted slice compressed in localStorage (spec §9: "kept compressed in browser
 * storage"). UTF-16 output stays valid in localStorage and JSON. A value that does not decompress
 * (written by something else, or truncated) reads back as undefined, so that slice starts fresh.
 */
export const compressTransform = createTransform<unknown, string>(
  (inbound) => compressToUTF16(JSON.stringify(inbound ?? null)),
  (outbound) => {
    try {
      const json = typeof outbound === 'string' ? decompressFromUTF16(outbound) : null;
      return json ? (JSON.parse(json) as unknown) : undefined;
    } catch {
      return undefined;
    }
  },
);
