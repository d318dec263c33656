import assert from 'node:assert/strict';

/** A small reader for what the writer produces: ustar headers, PAX path records, data, padding. */
export function parseTar(archive: Buffer): Array<{ name: string; data: Buffer; mtime: number }> {
  const entries: Array<{ name: string; data: Buffer; mtime: number }> = [];
  let offset = 0;
  let paxPath: string | undefined;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const stored = [...header].reduce((sum, byte, index) => sum + (index >= 148 && index < 156 ? 32 : byte), 0);
    assert.equal(parseInt(field(148, 8).trim(), 8), stored, 'header checksum');
    assert.equal(field(257, 6), 'ustar');
    const size = parseInt(field(124, 12), 8);
    const data = archive.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (field(156, 1) === 'x') {
      paxPath = /\d+ path=(.*)\n/s.exec(data.toString('utf8'))?.[1];
      continue;
    }
    entries.push({ name: paxPath ?? field(0, 100), data: Buffer.from(data), mtime: parseInt(field(136, 12), 8) });
    paxPath = undefined;
  }
  return entries;
}
