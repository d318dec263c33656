import type { FastifyInstance, FastifyReply, FastifyRequest, onSendAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { etagMatches, setRevalidationHeaders, weakEtag, type Revalidation } from '../../lib/http-caching';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opts a GET route into ETag, 304 and the matching Cache-Control (plugins/app/revalidate.ts). */
    revalidate?: Revalidation;
  }
}

/**
 * The contract's GETs that players poll or open often, by operationId: their answers are cached
 * by browsers and revalidated, so an unchanged one costs a 304 without a body. The scoreboard
 * (`gameScoreboard`, private) does the same itself, from the ETag made once per board
 * (`cachedJsonBody`, lib/cached-json.ts), and so do a team's game details (`gameDetails`, private:
 * `detailsBody` in modules/scoreboard/views.service.ts), and the game's notices (`gameNotices`,
 * private, the polled page cached per game); none of them needs the hook.
 */
const CONTRACT_ROUTES: Record<string, Revalidation> = {
  gameGame: 'private',
  gameGames: 'public',
  gameRecentGames: 'public',
  infoGetPosts: 'public',
  infoGetLatestPosts: 'public',
  infoGetPost: 'public',
  infoGetClientConfig: 'public',
};

/**
 * Gives a buffered answer its ETag (unless the handler set one) and turns it into a 304 without a
 * body when the request's If-None-Match names it. Runs before compression, so a 304 is never
 * compressed and the hash is taken over the JSON rather than over one of its encodings.
 */
function revalidator(revalidation: Revalidation): onSendAsyncHookHandler<unknown> {
  return async function revalidate(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
    if (reply.statusCode !== 200 && reply.statusCode !== 304) return payload;
    setRevalidationHeaders(reply, revalidation);
    if (reply.statusCode === 304) return payload;
    let etag = reply.getHeader('etag');
    if (etag === undefined) {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      etag = weakEtag(payload);
      reply.header('etag', etag);
    }
    if (!etagMatches(request.headers['if-none-match'], String(etag))) return payload;
    reply.code(304).removeHeader('content-type').removeHeader('content-length').removeHeader('content-encoding');
    // No payload at all (null, not ''): Fastify then adds no Content-Length, which on a 304 must be
    // the 200's if sent (RFC 9110 §8.6); for '' it had added 0.
    return null;
  };
}

/** Adds the revalidation hook to the routes that opt in, contract operations by the list above. */
export default fp(
  async function revalidate(app: FastifyInstance) {
    // Registered before @fastify/compress, so this route hook runs ahead of its compression hook.
    app.addHook('onRoute', (route) => {
      const revalidation = route.config?.revalidate ?? CONTRACT_ROUTES[route.config?.operation?.operationId ?? ''];
      if (!revalidation) return;
      const hook = revalidator(revalidation);
      route.onSend = [hook, ...(route.onSend === undefined ? [] : [route.onSend].flat())];
    });
  },
  { name: 'revalidate' },
);
