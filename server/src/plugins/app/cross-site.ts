import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../lib/http-error';

/** Methods that change something: a page on another site must not make a visitor's browser send them. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The container proxy takes no session and changes nothing over plain HTTP (it answers the wsrx
 * daemon's liveness pings); the daemon is a native program whose headers are not ours to demand.
 */
const EXEMPT_PREFIXES = ['/api/proxy/'];

/** `host[:port]`, lower-case, without the port the scheme implies, so `Host: a:443` meets `https://a`. */
function normalHost(host: string): string {
  return host.toLowerCase().replace(/:(80|443)$/, '');
}

/** Where a browser says the request comes from: `Origin`, else the `Referer`'s origin; undefined if neither. */
function claimedOrigin(request: FastifyRequest): URL | null | undefined {
  const header = request.headers.origin ?? request.headers.referer;
  if (header === undefined) return undefined;
  // `Origin: null` (sandboxed frames, file: pages, some redirects) is a browser saying "some
  // opaque origin": never ours. So is anything that is not a URL.
  try {
    return new URL(header);
  } catch {
    return null;
  }
}

/**
 * Our own origin is judged by host (and port) against the request's Host — X-Forwarded-Host when
 * TRUST_PROXY trusts the sender (Fastify's `request.host`) — and not by scheme: behind a TLS
 * proxy the server may not know it was reached over HTTPS, and a page served from the other scheme
 * of the same host is no stranger. PUBLIC_URL is matched exactly, for proxies that rewrite Host.
 */
function isOwnOrigin(request: FastifyRequest, origin: URL, publicOrigin: string | undefined): boolean {
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') return false;
  if (publicOrigin !== undefined && origin.origin === publicOrigin) return true;
  const host = request.host;
  return typeof host === 'string' && host !== '' && normalHost(origin.host) === normalHost(host);
}

const isHubUpgrade = (request: FastifyRequest, path: string) =>
  path.startsWith('/hub/') && request.headers.upgrade?.toLowerCase() === 'websocket';

/**
 * Refuses cross-site requests (CSRF) with 403: a state-changing request, or a WebSocket upgrade of a
 * hub (a cross-site WebSocket hijack would read the signed-in user's live events), whose Origin
 * (or, without one, Referer) is neither this platform nor PUBLIC_URL. A request naming neither is
 * let through: browsers send Origin on every cross-site POST and WebSocket, so only non-browser
 * clients (curl, scripts, other servers) omit both, and they carry no visitor's cookie to abuse.
 * The session cookie's SameSite=Lax (plugins/app/session.ts) is the second line of defence.
 */
export default fp(
  async function crossSite(app: FastifyInstance) {
    const publicOrigin = app.env.publicUrl === undefined ? undefined : new URL(app.env.publicUrl).origin;
    app.addHook('onRequest', async (request) => {
      const path = (request.url.split('?')[0] ?? '').toLowerCase();
      if (!STATE_CHANGING.has(request.method) && !isHubUpgrade(request, path)) return;
      if (EXEMPT_PREFIXES.some((prefix) => path.startsWith(prefix))) return;
      const origin = claimedOrigin(request);
      if (origin === undefined || (origin !== null && isOwnOrigin(request, origin, publicOrigin))) return;
      request.log.debug(
        { origin: request.headers.origin, referer: request.headers.referer },
        'cross-site request refused',
      );
      throw new HttpError(403, 'security.crossSite');
    });
  },
  { name: 'cross-site', dependencies: ['errors'] },
);
