import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The largest WebSocket message accepted. Hub clients send a handshake and pings; the proxy relays
 * TCP in the chunks the local daemon reads (kilobytes). A larger frame closes that socket alone
 * (1009) instead of being buffered whole (`ws` would take 100 MiB).
 */
export const MAX_WEBSOCKET_MESSAGE = 1024 * 1024;

/** WebSocket upgrades for the hubs and the container proxy. Compression stays off (memory, CPU, and no compression bombs). */
export default fp(
  async function websockets(app: FastifyInstance) {
    await app.register(websocket, { options: { maxPayload: MAX_WEBSOCKET_MESSAGE, perMessageDeflate: false } });
  },
  { name: 'websocket' },
);
