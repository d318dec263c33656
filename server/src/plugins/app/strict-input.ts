import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../lib/http-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The body media types the route takes (lower case, no parameters); a route that declares none
     * takes no body. Contract routes get theirs from the contract; others default to JSON when they
     * have a body schema.
     */
    accepts?: readonly string[];
    /** Set here, from `websocket`/`wsHandler`: the route may answer a WebSocket upgrade. */
    upgrades?: boolean;
  }
}

/** Methods whose bodies Fastify never reads, so there is nothing to refuse. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

const JSON_TYPE = 'application/json';

interface MediaType {
  type: string;
  charset: string | undefined;
}

function mediaType(header: string | undefined): MediaType | undefined {
  if (header === undefined) return undefined;
  const [type = '', ...parameters] = header.split(';');
  const charset = parameters
    .map((parameter) => parameter.trim().toLowerCase())
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"(.*)"$/, '$1');
  return { type: type.trim().toLowerCase(), charset };
}

function hasBody(request: FastifyRequest): boolean {
  const { 'content-length': length, 'transfer-encoding': encoding } = request.headers;
  return encoding !== undefined || (length !== undefined && length !== '0');
}

/** Whether a body of this media type may reach the route's parser. */
function takes(accepts: readonly string[], media: MediaType | undefined): boolean {
  if (!media || !accepts.includes(media.type)) return false;
  // JSON is UTF-8 (RFC 8259); a body announced in another charset would be misread.
  return media.type !== JSON_TYPE || media.charset === undefined || media.charset === 'utf-8';
}

/**
 * The JSON part of a contract body (`content: { 'application/json': { schema } }`) as a plain body
 * schema. Fastify validates a content-keyed body only when the request's media type matches a key,
 * so a missing body would otherwise reach the handler unvalidated.
 */
function plainJsonBody(schema: Record<string, unknown>): void {
  const content = (schema.body as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
  if (!content) return;
  const types = Object.keys(content);
  if (types.length === 1 && types[0] === JSON_TYPE) schema.body = content[JSON_TYPE]?.schema ?? {};
}

/**
 * Strict input for every route, in one place so a new route cannot forget it:
 * bodies of a media type the route does not take are refused with 415 before they are read, JSON
 * bodies must be UTF-8 and are parsed without coercion (lib/validator-compiler.ts), and WebSocket
 * upgrades reach only the routes built for them: the hubs and the container proxy.
 * Oversized bodies meet Fastify's `bodyLimit` (413) while streaming, before they are held whole.
 */
export default fp(
  async function strictInput(app: FastifyInstance) {
    app.addHook('onRoute', (route: RouteOptions & { websocket?: boolean; wsHandler?: unknown }) => {
      const schema = route.schema as Record<string, unknown> | undefined;
      let accepts = route.config?.accepts;
      if (schema?.body) {
        const content = (schema.body as { content?: Record<string, unknown> }).content;
        accepts ??= content ? Object.keys(content) : [JSON_TYPE];
        plainJsonBody(schema);
      }
      route.config = {
        ...route.config,
        accepts: (accepts ?? []).map((type) => type.toLowerCase()),
        upgrades: Boolean(route.websocket || route.wsHandler),
      };
    });

    // Before the handshake: a refused upgrade is an ordinary HTTP answer on the socket, never a 101.
    app.addHook('onRequest', async (request) => {
      if (request.ws && !request.routeOptions.config.upgrades) throw new HttpError(400, 'error.upgradeNotAllowed');
    });

    // After the sign-in, role and rate-limit checks (registered earlier), before a byte of the body is read.
    app.addHook('preParsing', async (request, _reply, payload) => {
      if (BODYLESS.has(request.method) || request.is404 || !hasBody(request)) return payload;
      const accepts = request.routeOptions.config.accepts ?? [];
      if (!takes(accepts, mediaType(request.headers['content-type']))) {
        throw new HttpError(415, 'error.unsupportedMediaType');
      }
      return payload;
    });

    // Fastify's text parser would hand a string to handlers that expect an object; no route takes text.
    app.removeContentTypeParser(['text/plain', JSON_TYPE]);
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
      const bytes = body as Buffer;
      // No body: a route that needs one says so in its validation (400 naming the body).
      if (bytes.length === 0) return done(null, undefined);
      // Decoding would silently turn bad bytes into U+FFFD and store them.
      if (!isUtf8(bytes)) return done(new HttpError(400, 'error.invalidEncoding'), undefined);
      parseJson(request, bytes.toString('utf8'), done);
    });
    // Any other type only gets here empty (the preParsing hook refused the rest): browsers label even
    // an empty fetch body (SignalR's negotiate sends one) `text/plain`.
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
      if ((body as Buffer).length > 0) return done(new HttpError(415, 'error.unsupportedMediaType'), undefined);
      done(null, undefined);
    });
  },
  { name: 'strict-input', dependencies: ['errors', 'websocket'] },
);
