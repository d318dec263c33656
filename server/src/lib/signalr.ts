/**
 * The server half of ASP.NET Core SignalR's JSON hub protocol over WebSockets, as far as GZCTF's hubs
 * use it (server → client invocations only). Wire facts:
 *
 * - `POST {hub}/negotiate?negotiateVersion=1` answers the connection token and the transports; the
 *   client then opens `{hub}?id={token}` as a WebSocket (or skips negotiation and opens it directly).
 * - Every message is JSON followed by the record separator 0x1E. The client's first message is the
 *   handshake `{"protocol":"json","version":1}`; the server answers `{}` (or `{"error": …}`).
 * - Server → client: invocation `{"type":1,"target":…,"arguments":[…]}`, ping `{"type":6}` (the
 *   client times out without traffic), close `{"type":7}`.
 */
export const RECORD_SEPARATOR = '\u001e';

export const MessageType = { Invocation: 1, Ping: 6, Close: 7 } as const;

export const frame = (message: unknown) => `${JSON.stringify(message)}${RECORD_SEPARATOR}`;

export const invocation = (target: string, ...args: unknown[]) =>
  frame({ type: MessageType.Invocation, target, arguments: args });

export const ping = () => frame({ type: MessageType.Ping });

/** `allowReconnect` for a passing failure: a client with automatic reconnection then tries again later. */
export const close = (error?: string, allowReconnect = false) =>
  frame(error ? { type: MessageType.Close, error, allowReconnect } : { type: MessageType.Close });

export function negotiateResponse(connectionToken: string, connectionId: string) {
  return {
    negotiateVersion: 1,
    connectionId,
    connectionToken,
    availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
  };
}

/**
 * The largest first message read as a handshake. A client's is about 32 bytes; a larger message is
 * not one, and is refused unread rather than decoded and parsed (a socket message may be 1 MiB).
 */
export const MAX_HANDSHAKE_BYTES = 4096;

/**
 * The handshake request in a connection's first message: only its first record is parsed, whatever
 * follows it is not looked at. Parsing every record of a message full of tiny invalid ones held the
 * event loop for seconds, for a socket nobody had admitted yet. Undefined when the message is too
 * large or its first record is not JSON.
 */
export function readHandshake(data: Buffer): unknown {
  if (data.length > MAX_HANDSHAKE_BYTES) return undefined;
  const end = data.indexOf(RECORD_SEPARATOR);
  try {
    return JSON.parse(data.toString('utf8', 0, end < 0 ? data.length : end)) as unknown;
  } catch {
    return undefined;
  }
}

/** A handshake request the server accepts: the JSON protocol, version 1. */
export function isJsonHandshake(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { protocol, version } = message as { protocol?: unknown; version?: unknown };
  return protocol === 'json' && version === 1;
}
