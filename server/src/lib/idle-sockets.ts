import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { responseOn } from './socket-response';

/**
 * Decides, when a connection's idle timer fires, whether the silence was the client's.
 *
 * Node closes a socket silent for the server's timeout only while nobody listens for the server's
 * 'timeout' event; with this listener the server closes it itself unless the request has fully
 * arrived and its answer has not begun: then the wait is the handler's (a container whose image is
 * pulled for minutes, a large export), and the timer is armed again. A body still arriving, a
 * keep-alive connection between requests and a client that stopped reading its answer are closed.
 * Deciding when the timer fires, instead of pausing it around every request, costs the requests
 * nothing. Upgraded sockets (hubs, the proxy) have left the server's timeout handling by then.
 */
export function closeIdleSockets(server: Server, idleTimeout: number): void {
  server.on('timeout', (socket: Socket) => {
    const response = responseOn(socket);
    if (response && !response.headersSent && response.req.complete) socket.setTimeout(idleTimeout);
    else socket.destroy();
  });
}
