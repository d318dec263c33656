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
import net from 'node:net';
import { WebSocket } from 'ws';
import { openRawWebSocket } from '../helpers/raw-websocket';

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

/** Read the way a native client would: frame headers parsed, payloads counted, nothing copied. */
function readWs(url: string, limit: number): Promise<number> {
  const raw = openRawWebSocket(url, (total) => {
    if (total >= limit) raw.socket.destroy();
  });
  return raw.closed.then(({ bytes }) => bytes);
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
