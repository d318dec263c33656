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

export const close = (error?: string) =>
  frame(error ? { type: MessageType.Close, error, allowReconnect: false } : { type: MessageType.Close });

export function negotiateResponse(connectionToken: string, connectionId: string) {
  return {
    negotiateVersion: 1,
    connectionId,
    connectionToken,
    availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
  };
}

/** Parses the frames of one WebSocket message; a frame that is not JSON is dropped. */
export function parseFrames(data: string): unknown[] {
  return data
    .split(RECORD_SEPARATOR)
    .filter((part) => part.length > 0)
    .flatMap((part) => {
      try {
        return [JSON.parse(part) as unknown];
      } catch {
        return [];
      }
    });
}

/** A handshake request the server accepts: the JSON protocol, version 1. */
export function isJsonHandshake(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { protocol, version } = message as { protocol?: unknown; version?: unknown };
  return protocol === 'json' && version === 1;
}
