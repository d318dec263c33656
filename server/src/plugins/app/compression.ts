import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Routes whose answers are never compressed here: container WebSocket proxies and hubs (upgrades
 * and long-lived streams), stored files (streamed with their own length and ranges), and the built
 * client's files, which the build already compressed (`webpack.config.ts`, served by `client.ts`).
 */
const UNCOMPRESSED_PREFIXES = ['/hub/', '/api/proxy/', '/assets/'];
const STATIC_FILES_ROUTE = '/*';

/**
 * Compresses API answers above 1 KB with brotli at quality 4 (a fraction of the CPU of higher
 * qualities for JSON, and still smaller than gzip) or gzip, by the client's Accept-Encoding, and
 * adds `Vary: Accept-Encoding` to what it compresses. Only types mime-db marks compressible are
 * touched, so zip, PDF, xlsx and pcap downloads go out as they are. Request bodies are never
 * inflated: a small compressed upload could otherwise expand to far more than the body limits allow.
 * 204 and 304 answers have no body, so there is nothing to compress.
 */
export default fp(
  async function compression(app: FastifyInstance) {
    // Added before @fastify/compress's own onRoute hook, so it sees the `compress: false`.
    app.addHook('onRoute', (route) => {
      if (route.compress !== undefined) return;
      const url = route.url.toLowerCase();
      if (url === STATIC_FILES_ROUTE || UNCOMPRESSED_PREFIXES.some((prefix) => url.startsWith(prefix))) {
        route.compress = false;
      }
    });
    await app.register(fastifyCompress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: 1024,
      brotliOptions: {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'compression' },
);
