/**
 * Reads a byte stream over N connections at once, in its own process (so it never shares an event
 * loop with the server it measures): plain TCP straight to a container, or a WebSocket through the
 * platform proxy. Each connection reads `bytes` (or until the other side closes). Prints
 * `{ bytes, seconds, mibPerSecond }` as JSON.
 *
 * The WebSocket side is read the way a native client (the Rust wsrx daemon) would: frame headers
 * parsed, payloads counted where they lie, nothing copied. `ws-library` reads through the `ws`
 * package instead, whose JavaScript frame handling costs about as much CPU as the proxy itself.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { WebSocket } from 'ws';

interface Job {
  mode: 'tcp' | 'ws' | 'ws-library';
  /** host:port for tcp, a ws:// URL for ws. */
  target: string;
  connections: number;
  bytes: number;
}

function readTcp(target: string, limit: number): Promise<number> {
  const [host, port] = target.split(':');
  return new Promise((resolve, reject) => {
    let total = 0;
    const socket = net.connect(Number(port), host!);
    socket.on('data', (chunk) => {
      total += chunk.length;
      if (total >= limit) socket.destroy();
    });
    socket.on('close', () => resolve(total));
    socket.on('error', reject);
  });
}

/** A WebSocket opened by hand: the handshake, then unmasked server frames whose payloads are only counted. */
function readWs(url: string, limit: number): Promise<number> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    let total = 0;
    let handshake = true;
    // The header read so far (2, 4 or 10 bytes for an unmasked frame) and the payload left to count.
    let header = Buffer.alloc(0);
    let skip = 0;
    const headerSize = (bytes: Buffer) => {
      if (bytes.length < 2) return 2;
      const short = bytes[1]! & 0x7f;
      return short === 126 ? 4 : short === 127 ? 10 : 2;
    };
    const socket = net.connect(Number(port), hostname);
    socket.on('connect', () =>
      socket.write(
        `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      let offset = 0;
      if (handshake) {
        const end = chunk.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!chunk.subarray(0, 12).toString().includes('101')) return reject(new Error(chunk.toString()));
        handshake = false;
        offset = end + 4;
      }
      while (offset < chunk.length) {
        if (skip > 0) {
          const take = Math.min(skip, chunk.length - offset);
          skip -= take;
          offset += take;
          total += take;
          continue;
        }
        const take = Math.min(headerSize(header) - header.length, chunk.length - offset);
        header = Buffer.concat([header, chunk.subarray(offset, offset + take)]);
        offset += take;
        if (header.length < 2 || header.length < headerSize(header)) continue;
        const short = header[1]! & 0x7f;
        skip = short === 126 ? header.readUInt16BE(2) : short === 127 ? Number(header.readBigUInt64BE(2)) : short;
        header = Buffer.alloc(0);
      }
      if (total >= limit) socket.destroy();
    });
    socket.on('close', () => resolve(total));
    socket.on('error', reject);
  });
}

function readWsLibrary(url: string, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let total = 0;
    const ws = new WebSocket(url);
    ws.on('message', (data: Buffer) => {
      total += data.length;
      if (total >= limit) ws.terminate();
    });
    ws.on('close', () => resolve(total));
    ws.on('error', reject);
  });
}

async function main() {
  const job = JSON.parse(process.argv[2]!) as Job;
  const read = { tcp: readTcp, ws: readWs, 'ws-library': readWsLibrary }[job.mode];
  const started = process.hrtime.bigint();
  const totals = await Promise.all(Array.from({ length: job.connections }, () => read(job.target, job.bytes)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const bytes = totals.reduce((sum, value) => sum + value, 0);
  process.stdout.write(JSON.stringify({ bytes, seconds, mibPerSecond: bytes / 1048576 / seconds }));
}

main().catch((error: unknown) => {
  process.stderr.write(String(error));
  process.exit(1);
});
