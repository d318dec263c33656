import { randomBytes } from 'node:crypto';
import net from 'node:net';

export interface RawWebSocket {
  /** The TCP socket under the WebSocket: pause it to be a slow reader. */
  socket: net.Socket;
  /** Payload bytes of binary and continuation frames so far. */
  received(): number;
  /** Resolves when the connection closes: the bytes received and the close frame's code (or null). */
  closed: Promise<{ bytes: number; code: number | null }>;
}

/**
 * A WebSocket client opened by hand, the way a native client reads: the handshake, then the server's
 * (unmasked) frames, whose headers are parsed and whose payloads are only counted, never copied. For
 * tests that control the socket themselves and for the throughput bench, where a JavaScript frame
 * decoder would be the bottleneck.
 */
export function openRawWebSocket(url: string, onData?: (total: number) => void): RawWebSocket {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let handshake = true;
  let total = 0;
  // The header read so far (2, 4 or 10 bytes) and what is left of the current frame's payload.
  let header = Buffer.alloc(0);
  let left = 0;
  let opcode = 0;
  let closePayload = Buffer.alloc(0);
  let code: number | null = null;
  let answered = false;
  // A close frame ends the conversation: answer it (masked and empty, as a client may) and hang up.
  const answerClose = () => {
    if (answered) return;
    answered = true;
    if (closePayload.length >= 2) code = closePayload.readUInt16BE(0);
    socket.end(Buffer.from([0x88, 0x80, 0, 0, 0, 0]));
  };
  const headerSize = (bytes: Buffer) => {
    if (bytes.length < 2) return 2;
    const short = bytes[1]! & 0x7f;
    return short === 126 ? 4 : short === 127 ? 10 : 2;
  };
  socket.on('connect', () =>
    socket.write(
      `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    ),
  );
  const closed = new Promise<{ bytes: number; code: number | null }>((resolve, reject) => {
    socket.on('close', () => resolve({ bytes: total, code }));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      let offset = 0;
      if (handshake) {
        const end = chunk.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!/^HTTP\/1\.1 101 /.test(chunk.subarray(0, 13).toString())) {
          socket.destroy();
          return reject(new Error(chunk.subarray(0, end).toString()));
        }
        handshake = false;
        offset = end + 4;
      }
      while (offset < chunk.length) {
        if (left > 0) {
          const take = Math.min(left, chunk.length - offset);
          if (opcode === 0 || opcode === 2) total += take;
          if (opcode === 8) closePayload = Buffer.concat([closePayload, chunk.subarray(offset, offset + take)]);
          left -= take;
          offset += take;
          if (left === 0 && opcode === 8) answerClose();
          continue;
        }
        const take = Math.min(headerSize(header) - header.length, chunk.length - offset);
        header = Buffer.concat([header, chunk.subarray(offset, offset + take)]);
        offset += take;
        if (header.length < 2 || header.length < headerSize(header)) continue;
        opcode = header[0]! & 0x0f;
        const short = header[1]! & 0x7f;
        left = short === 126 ? header.readUInt16BE(2) : short === 127 ? Number(header.readBigUInt64BE(2)) : short;
        header = Buffer.alloc(0);
        if (opcode === 8 && left === 0) answerClose();
      }
      onData?.(total);
    });
  });
  return { socket, received: () => total, closed };
}
