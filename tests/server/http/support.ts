import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { parseRawAnswer, type RawAnswer } from '../helpers/raw-http';

/** Fails instead of waiting for ever (a socket that is never closed, an answer that never comes). */
export function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface RawExchange {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** The first answer, parsed from what was received. */
  answer(): RawAnswer;
  /** Resolves when the server closed the socket (or it was destroyed). */
  closed: Promise<void>;
}

const opened = new Set<net.Socket>();

/** Destroys every socket rawSend opened that is still open, so a failed test cannot hold the server open. */
export function destroyRawSockets(): void {
  for (const socket of opened) socket.destroy();
  opened.clear();
}

/**
 * Writes `text` on a new socket, byte for byte, so a test can announce a body and then stall; nothing
 * in an HTTP client retries, times out or finishes the body behind its back.
 */
export function rawSend(port: number, text: string | Buffer): RawExchange {
  const socket = net.connect(port, '127.0.0.1');
  opened.add(socket);
  socket.once('close', () => opened.delete(socket));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  // A reset after the answer (the server closed with bytes of ours unread) is a close like any other.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(text);
  return {
    socket,
    received: () => received,
    answer: () => parseRawAnswer(received),
    closed,
  };
}

/** The head of a POST announcing `length` bytes of body, followed by the first `start` of them. */
export function stalledPost(path: string, length: number, start: string, contentType = 'application/json'): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n` +
    `Content-Length: ${length}\r\n\r\n${start}`
  );
}

/** Listens on a free loopback port and returns it. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening on a port');
  return address.port;
}
