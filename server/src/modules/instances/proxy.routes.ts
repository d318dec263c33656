import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { WebSocket } from 'ws';
import type { Handlers } from '../../contract/handlers';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import { addressScope } from '../../plugins/app/brute-force';
import type { ContainerSocket, ProxyTarget } from './proxy';

/** A dialed connection waiting for its WebSocket, by request. */
const prepared = new WeakMap<FastifyRequest, { target: ProxyTarget; container: ContainerSocket }>();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findTarget(request: FastifyRequest, noInstance: boolean): Promise<ProxyTarget> {
  const proxy = request.server.containerProxy;
  if (!proxy.enabled) throw badRequest('proxy.notEnabled');
  const id = (request.params as { id: string }).id;
  const target = UUID.test(id) ? await proxy.target(id.toLowerCase(), noInstance) : undefined;
  if (target) return target;
  if (!(await proxy.missAllowed(addressScope(request.ip)))) {
    throw new HttpError(429, 'error.tooManyRequests', { seconds: 60 });
  }
  throw notFound('container.notFound');
}

/**
 * Any request that is not a WebSocket upgrade: 204 for a live id, 404 for an unknown one (the
 * daemon's liveness ping). It never opens a connection to the container.
 */
const plain = (noInstance: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
  await findTarget(request, noInstance);
  return reply.code(204).send();
};

/**
 * Before an upgrade is accepted: the container exists (its row, not only the cached target), has a free connection slot and answers on its
 * port; otherwise the upgrade is refused with 404, 400 or 418 and no WebSocket is made.
 */
const prepare = (noInstance: boolean) => async (request: FastifyRequest) => {
  if (!request.ws) return;
  const proxy = request.server.containerProxy;
  const target = await findTarget(request, noInstance);
  if (!(await proxy.stillThere(target.rowId))) throw notFound('container.notFound');
  if (!(await proxy.admit(target.rowId))) throw badRequest('proxy.tooManyConnections');
  let container: ContainerSocket;
  try {
    container = await proxy.dial(target);
  } catch (error) {
    await proxy.release(target.rowId);
    request.log.debug({ err: error, container: target.rowId }, 'proxy dial failed');
    throw new HttpError(418, 'proxy.unreachable');
  }
  // Until the bridge's pipelines own it, a reset from the container must not become an uncaught error.
  container.tcp.on('error', () => undefined);
  prepared.set(request, { target, container });
  // The handshake may still fail (a malformed upgrade); then the dialed socket and the slot go back.
  request.raw.socket.once('close', () => {
    const waiting = prepared.get(request);
    if (!waiting) return;
    prepared.delete(request);
    waiting.container.tcp.destroy();
    void proxy.release(target.rowId);
  });
};

function bridge(socket: WebSocket, request: FastifyRequest): void {
  const waiting = prepared.get(request);
  if (!waiting) {
    socket.close(1011);
    return;
  }
  prepared.delete(request);
  request.server.containerProxy.bridge(socket, waiting.container, waiting.target, {
    host: request.ip,
    port: request.raw.socket.remotePort ?? 0,
  });
}

export const proxyHandlers: Handlers = {
  proxyProxyForInstance: plain(false) as unknown as Handlers['proxyProxyForInstance'],
  proxyProxyForNoInstance: plain(true) as unknown as Handlers['proxyProxyForNoInstance'],
};

/** Route options the contract's GET routes get besides their handler: the upgrade path. */
export const proxyRouteOptions: Record<string, Partial<RouteOptions>> = {
  proxyProxyForInstance: { preHandler: prepare(false), wsHandler: bridge } as Partial<RouteOptions>,
  proxyProxyForNoInstance: { preHandler: prepare(true), wsHandler: bridge } as Partial<RouteOptions>,
};

/** GZCTF answers every method on a proxy id; the contract lists GET (HEAD comes with it) and names these in `x-other-methods`. */
export async function proxyOtherMethods(app: FastifyInstance): Promise<void> {
  const methods = ['OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
  app.route({ method: [...methods], url: '/api/proxy/:id', handler: plain(false) });
  app.route({ method: [...methods], url: '/api/proxy/noinst/:id', handler: plain(true) });
}
