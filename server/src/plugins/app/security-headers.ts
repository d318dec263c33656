import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { CaptchaProvider } from '../../env';

/** Where Cloudflare Turnstile's script and its challenge frame come from (only when it is the captcha). */
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/** A Host header fit to be written into a policy: a name or address and a port, nothing that ends a directive. */
const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A fresh nonce for one HTML answer: 128 random bits, as the CSP specification asks for. */
export const newNonce = (): string => randomBytes(16).toString('base64');

/**
 * The policy of the client shell. Scripts run only from our origin or with this answer's nonce, so
 * markup that slips into a page (a sanitiser bug, a crafted file name) cannot run anything. Styles:
 * emotion (MUI), goober (notistack) and the data grid insert `<style>` tags carrying the nonce the
 * page hands them (src/app/nonce.ts, src/app/theme.ts); style attributes React sets go through the CSSOM, which the policy does not
 * govern. Images may come from anywhere over HTTPS because organisers' markdown links pictures
 * hosted elsewhere, and a picture cannot run code. `connect-src` adds the hubs' WebSocket origin
 * (older Safari does not count ws: under 'self') and the local wsrx daemon on loopback, as GZCTF's
 * policy does.
 */
export function shellPolicy(nonce: string, request: Pick<FastifyRequest, 'host'>, captcha: CaptchaProvider): string {
  const turnstile = captcha === 'CloudflareTurnstile' ? ` ${TURNSTILE_ORIGIN}` : '';
  const host = request.host;
  // Both schemes: behind a TLS proxy the server may think it is plain HTTP (and browsers refuse ws:
  // from an HTTPS page anyway).
  const sockets = host && PLAIN_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${turnstile}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets} http://127.0.0.1:* http://localhost:*`,
    "worker-src 'self'",
    `frame-src 'self'${turnstile}`,
    "media-src 'self' https:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers only the HTML shell carries: its policy, and no framing for browsers without CSP 2. */
export function setShellHeaders(request: FastifyRequest, reply: FastifyReply, nonce: string): void {
  reply
    .header('content-security-policy', shellPolicy(nonce, request, request.server.env.captcha.provider))
    .header('x-frame-options', 'DENY');
}

const COMMON_HEADERS = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
] as const;

/**
 * Headers every answer carries, whatever produced it (a route, a static file, a 304, the error or
 * not-found handler, or what Fastify answers before routing: a URL it cannot decode, a 503 while
 * closing): `nosniff`, so a browser never reads JSON, a download or an error as HTML or script, and a
 * referrer policy that keeps paths and query strings (game ids, reset tokens) from leaving for other
 * sites. They are put on Node's response by a listener ahead of Fastify's, before anything can
 * answer, and Node keeps them through Fastify's `writeHead`. Requests that reach the router without
 * Node's 'request' event (`inject`) get them from the hook, a callback: every request passes it, and
 * an async hook's promise had cost each one more than the headers.
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const setOn = (response: ServerResponse) => {
      for (const [name, value] of COMMON_HEADERS) response.setHeader(name, value);
    };
    app.server.prependListener('request', (_request, response) => setOn(response));
    app.addHook('onRequest', (_request, reply, done) => {
      if (!reply.raw.hasHeader(COMMON_HEADERS[0][0])) setOn(reply.raw);
      done();
    });
  },
  { name: 'security-headers' },
);
