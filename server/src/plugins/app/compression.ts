import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { addVary, COMPRESSION_THRESHOLD } from '../../lib/http-caching';

/**
 * Routes whose answers are never compressed here: container WebSocket proxies and hubs (upgrades
 * and long-lived streams), stored files (streamed with their own length and ranges), and the built
 * client's files, which the build already compressed (`webpack.config.ts`, served by `client.ts`).
 */
const UNCOMPRESSED_PREFIXES = ['/hub/', '/api/proxy/', '/assets/'];
const STATIC_FILES_ROUTE = '/*';
/**
 * The contract's file downloads (sheets, archives, captures): sent as they are, with their length.
 * Most are compressed already (xlsx, archives of PDFs) and the rest can be large, so compressing
 * them per request would spend CPU the judge needs for little or nothing.
 */
const FILE_DOWNLOADS = new Set([
  'adminDownloadAllWriteups',
  'assetsGetFile',
  'gameScoreboardSheet',
  'gameSubmissionSheet',
  'gameGetTeamTrafficZip',
  'gameGetTeamTraffic',
]);

// A callback, not an async function: nearly every answer passes here, and a promise each costs more.
const varyOnEncoding: onSendHookHandler<unknown> = (_request, reply, payload, done) => {
  if (reply.statusCode !== 204) addVary(reply, 'Accept-Encoding');
  done(null, payload);
};

/**
 * Compresses API answers above 1 KB with brotli at quality 4 (a fraction of the CPU of higher
 * qualities for JSON, and still smaller than gzip) or gzip, by the client's Accept-Encoding, and
 * adds `Vary: Accept-Encoding` to what it may compress. File downloads are left alone (above).
 * Request bodies are never inflated: a small compressed upload could otherwise expand to far more
 * than the body limits allow. 204 and 304 answers have no body, so there is nothing to compress.
 */
export default fp(
  async function compression(app: FastifyInstance) {
    // Added before @fastify/compress's own onRoute hook, so it sees the `compress: false`.
    app.addHook('onRoute', (route) => {
      const url = route.url.toLowerCase();
      if (
        route.compress === undefined &&
        (url === STATIC_FILES_ROUTE ||
          UNCOMPRESSED_PREFIXES.some((prefix) => url.startsWith(prefix)) ||
          FILE_DOWNLOADS.has(route.config?.operation?.operationId ?? ''))
      ) {
        route.compress = false;
      }
      // The same route's answer may be compressed when it grows past the threshold, so caches are
      // told on every answer (small, 304 or compressed) that it depends on Accept-Encoding.
      if (route.compress !== false) {
        route.onSend = [varyOnEncoding, ...(route.onSend === undefined ? [] : [route.onSend].flat())];
      }
    });
    await app.register(fastifyCompress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: COMPRESSION_THRESHOLD,
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
