import { Readable } from 'node:stream';

/**
 * A streaming POSIX tar (ustar) writer: entries are read one after another and never held in memory
 * whole. Names that are not plain ASCII or longer than 100 bytes get a PAX `path` record first, which
 * every current tar reader understands (GNU tar, bsdtar, 7-Zip, Python's tarfile).
 */
export interface TarEntry {
  name: string;
  size: number;
  mtime?: Date;
  /** Opened only when the entry is written; must yield exactly `size` bytes. */
  open(): Readable | Promise<Readable>;
}

const BLOCK = 512;
// 11 octal digits: the ustar size field's limit.
const MAX_SIZE = 8 ** 11 - 1;

function octal(value: number, width: number): string {
  return `${Math.floor(value)
    .toString(8)
    .padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: Date, type: '0' | 'x'): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.max(0, mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write(' '.repeat(8), 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let checksum = 0;
  for (const byte of block) checksum += byte;
  block.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

// A PAX record is "<length> <key>=<value>\n", where <length> counts the whole record, itself included.
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  const bodyLength = Buffer.byteLength(body, 'utf8');
  let length = bodyLength + 1;
  while (String(length).length + bodyLength !== length) length = String(length).length + bodyLength;
  return Buffer.from(`${length}${body}`, 'utf8');
}

/** An ASCII stand-in of at most `limit` bytes for readers that ignore PAX records. */
const asciiName = (name: string, limit: number) => name.replace(/[^\x20-\x7e]/g, '_').slice(-limit);

async function* records(entries: Iterable<TarEntry> | AsyncIterable<TarEntry>): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    if (!Number.isSafeInteger(entry.size) || entry.size < 0 || entry.size > MAX_SIZE) {
      throw new RangeError(`tar entry ${entry.name} has an unsupported size ${entry.size}`);
    }
    const mtime = entry.mtime ?? new Date();
    let name = entry.name;
    if (/[^\x20-\x7e]/.test(name) || Buffer.byteLength(name, 'utf8') > 100) {
      const pax = paxRecord('path', name);
      yield header(`PaxHeader/${asciiName(name, 90)}`, pax.length, mtime, 'x');
      yield pax;
      yield padding(pax.length);
      name = asciiName(name, 100);
    }
    yield header(name, entry.size, mtime, '0');
    let written = 0;
    for await (const chunk of await entry.open()) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      written += buffer.length;
      if (written > entry.size) throw new Error(`tar entry ${entry.name} is longer than its declared size`);
      yield buffer;
    }
    if (written !== entry.size) throw new Error(`tar entry ${entry.name} is shorter than its declared size`);
    yield padding(entry.size);
  }
  // The end of an archive: two zero blocks.
  yield Buffer.alloc(2 * BLOCK);
}

/** A readable tar archive of the entries, produced as the consumer reads it. */
export function createTarStream(entries: Iterable<TarEntry> | AsyncIterable<TarEntry>): Readable {
  return Readable.from(records(entries), { objectMode: false });
}
