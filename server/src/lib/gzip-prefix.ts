import zlib from 'node:zlib';

/**
 * Gzip answers that all begin with the same long text, compressed once: each answer then costs
 * compressing its own short end only. Used where thousands of readers poll answers that differ in
 * a few hundred bytes at the end (a team's game details after the board's challenges), so per
 * request compression of the whole was most of the answer's cost.
 *
 * How (RFC 1951, 1952): the shared start is deflated once and flushed with Z_SYNC_FLUSH, which ends
 * it on a byte boundary without a final block; each end is deflated as a stream of its own, whose
 * blocks refer only to themselves, and appended, so start + end is one valid deflate stream. The
 * gzip header goes in front and the trailer (CRC-32 and length of the whole text) after it, the
 * CRC carried on from the start's. Any gzip decoder reads the result as one member.
 */
export class GzipPrefix {
  private readonly head: Buffer;
  private readonly crc: number;
  private readonly length: number;

  constructor(start: string) {
    const bytes = Buffer.from(start);
    // ID1 ID2, deflate, no flags, no mtime, no extra flags, OS unknown.
    const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    this.head = Buffer.concat([
      header,
      zlib.deflateRawSync(bytes, { level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    ]);
    this.crc = zlib.crc32(bytes);
    this.length = bytes.length;
  }

  /** The gzip encoding of the shared start followed by `end`. */
  finish(end: string): Buffer {
    const bytes = Buffer.from(end);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(zlib.crc32(bytes, this.crc), 0);
    // ISIZE: the whole text's length modulo 2^32.
    trailer.writeUInt32LE((this.length + bytes.length) % 2 ** 32, 4);
    return Buffer.concat([this.head, zlib.deflateRawSync(bytes, { level: 6 }), trailer]);
  }
}
