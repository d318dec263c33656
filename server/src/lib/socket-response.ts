import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The answer in progress on an HTTP socket, once its request's headers have been parsed (Node keeps
 * it on the socket and exposes no public accessor): what the idle timeout and the answer to a
 * refused request need to know of the request and its answer.
 */
export const responseOn = (socket: Socket): ServerResponse | undefined =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
