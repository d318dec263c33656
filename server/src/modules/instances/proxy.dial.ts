import net from 'node:net';

export interface Endpoint {
  host: string;
  port: number;
}

/**
 * Opens a TCP connection to the first candidate that accepts one within `timeoutMs`. The candidates
 * are one container's addresses in order of preference: its own address on the challenge network,
 * and the port its engine publishes on its host (the only way in when the engine runs on another host
 * than the platform, where the challenge network is out of reach).
 */
export async function dialFirst(
  candidates: Endpoint[],
  timeoutMs: number,
  options: Pick<net.TcpSocketConnectOpts, 'onread'> = {},
): Promise<{ socket: net.Socket; index: number }> {
  let lastError: unknown = new Error('no address to dial');
  for (const [index, candidate] of candidates.entries()) {
    try {
      return { socket: await dial(candidate, timeoutMs, options), index };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function dial(
  { host, port }: Endpoint,
  timeoutMs: number,
  options: Pick<net.TcpSocketConnectOpts, 'onread'>,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ ...options, host, port, noDelay: true });
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`connecting to ${host}:${port} timed out`)), timeoutMs);
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/**
 * Remembers which candidate answered for a container, so its later connections dial that one first
 * instead of waiting out an unreachable address each time. Bounded: the oldest entries go first.
 */
export class DialMemory {
  private readonly preferred = new Map<string, number>();
  constructor(private readonly capacity = 10_000) {}

  order<T>(key: string, candidates: T[]): T[] {
    const index = this.preferred.get(key);
    if (index === undefined || index >= candidates.length) return candidates;
    return [candidates[index]!, ...candidates.filter((_, position) => position !== index)];
  }

  remember(key: string, candidates: unknown[], ordered: unknown[], index: number): void {
    this.preferred.delete(key);
    this.preferred.set(key, candidates.indexOf(ordered[index]));
    if (this.preferred.size > this.capacity) this.preferred.delete(this.preferred.keys().next().value!);
  }

  forget(key: string): void {
    this.preferred.delete(key);
  }
}
