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

/**
 * The deepest nesting of arrays and objects a JSON body may have. The contract's deepest body is two
 * levels (a game's divisions, the admin config's sections) and GZCTF's serializer stops at 64; an
 * attacker's half-megabyte of `[` costs JSON.parse and the checks after it most of a second of the
 * only thread, which this refuses after a scan of about 1 ms per MiB.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text nests arrays and objects deeper than `max`, read in one pass without
 * parsing: brackets inside strings (escaped quotes included) do not count. Malformed text is left to
 * JSON.parse, which refuses it anyway; only the depth it would have to reach is judged here.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      // On to the closing quote; the byte after a backslash is skipped, so an escaped quote is text.
      for (i++; i < length; i++) {
        const inner = bytes[i];
        if (inner === QUOTE) break;
        if (inner === BACKSLASH) i++;
      }
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

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

/**
 * Whether part of the request's body is still to arrive. `complete` is Node's: set once the whole
 * message has been received, whether or not anyone read it (an injected request has no such flag).
 * An upgrade's socket belongs to the WebSocket code, never to a next request.
 */
const bodyStillArriving = (request: FastifyRequest) => request.raw.complete === false && !request.ws;

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
 * Oversized bodies meet Fastify's `bodyLimit` (413) while streaming, before they are held whole;
 * JSON nested deeper than MAX_JSON_DEPTH is refused (400) before it is parsed. A body sent to no route
 * is never read, and an answer given before the body has arrived closes the connection.
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
    app.addHook('preParsing', async (request, reply, payload) => {
      if (BODYLESS.has(request.method) || !hasBody(request)) return payload;
      // No route would read it: the not-found answer comes now, not after the body was received and
      // parsed (which cost whatever the sender chose, and a stalled body held the socket), and the
      // connection closes with it rather than receiving the rest for nothing.
      if (request.is404) {
        reply.header('connection', 'close');
        throw new HttpError(404, 'error.notFound');
      }
      const accepts = request.routeOptions.config.accepts ?? [];
      if (!takes(accepts, mediaType(request.headers['content-type']))) {
        throw new HttpError(415, 'error.unsupportedMediaType');
      }
      return payload;
    });

    // Any answer sent before the body has fully arrived (401, 403, 429, 413, 415...) closes the
    // connection: keeping it would mean receiving the rest of the body, as slowly as the sender likes,
    // only to throw it away before the next request could be read. Node runs the hooks between reading
    // a request's head and its body even when both came in one packet, so the answer waits for that
    // packet to be read first: a small refused body (a 429 to a flag submission) keeps the connection.
    app.addHook('onSend', async (request, reply, payload) => {
      if (!bodyStillArriving(request)) return payload;
      await new Promise((resolve) => setImmediate(resolve));
      if (bodyStillArriving(request)) reply.header('connection', 'close');
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
      if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) {
        return done(new HttpError(400, 'error.jsonTooDeep', { max: MAX_JSON_DEPTH }), undefined);
      }
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
