import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { WebSocket } from 'ws';

/**
 * A stand-in for the wsrx desktop daemon, for browser tests: a real HTTP server on 127.0.0.1 with the
 * daemon's API (reference §7.5, spec §7 "Local daemon") and its CORS rules, whose mappings are real:
 * `POST /pool` opens a TCP port that carries each connection over a WebSocket to the remote URL, as
 * wsrx does. So a test can approve the site, read the local address from the page and talk to the
 * challenge through it.
 *
 * CORS as the daemon does it: `/version` and `/connect` answer any origin; `/pool` answers only
 * origins whose scope was approved (others get no CORS headers, which the browser reports as a
 * failed request). The site is the request's Origin header (`host: 'IN_HEADER'`).
 */

export interface StandInDaemonOptions {
  /** TCP port of the API; 0 (the default) picks a free one. */
  port?: number;
  /** What `GET /version` reports; null answers 404, as daemons from before that endpoint do. */
  version?: string | null;
  /** Sites that ask to be listed start approved, as if the user clicked "allow" at once. */
  autoApprove?: boolean;
}

export interface Scope {
  origin: string;
  name: string;
  features: string[];
  state: 'pending' | 'allowed';
}

export interface Mapping {
  origin: string;
  label?: string;
  remote: string;
  /** Where the mapping listens, e.g. `127.0.0.1:41234`. */
  local: string;
  latency: number;
}

export interface StandInDaemon {
  /** The API's base URL, the value of the client's `api` option. */
  url: string;
  port: number;
  /** Every API request as `METHOD /path`, in order (preflights included as `OPTIONS /path`). */
  requests: string[];
  scopes(): Scope[];
  mappings(): Mapping[];
  /** Approves the pending site(s): `GET /connect` answers 202 from then on. */
  approve(origin?: string): void;
  /** Forgets the site(s) and closes their mappings, as if the user removed them in the daemon. */
  forget(origin?: string): Promise<void>;
  setVersion(version: string | null): void;
  /** Stops the API, every mapping and every bridged connection. */
  close(): Promise<void>;
}

interface LiveMapping extends Mapping {
  server: net.Server;
  sockets: Set<net.Socket>;
}

const MAX_BODY = 64 * 1024;

function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) request.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => {
      try {
        const value = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
        resolve(value && typeof value === 'object' ? (value as Record<string, unknown>) : {});
      } catch (error) {
        reject(error as Error);
      }
    });
    request.on('error', reject);
  });
}

/** Carries one accepted TCP connection over a new WebSocket to `remote`, both ways, until either ends. */
function bridge(socket: net.Socket, remote: string) {
  const ws = new WebSocket(remote);
  const early: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(chunk);
    else early.push(chunk);
  });
  ws.on('open', () => early.splice(0).forEach((chunk) => ws.send(chunk)));
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    socket.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
  });
  ws.on('close', () => socket.end());
  ws.on('error', () => socket.destroy());
  socket.on('close', () => ws.close());
  socket.on('error', () => ws.terminate());
}

export async function startWsrxDaemon({
  port = 0,
  version = '0.5.0',
  autoApprove = false,
}: StandInDaemonOptions = {}): Promise<StandInDaemon> {
  let currentVersion = version;
  const scopes = new Map<string, Scope>();
  const mappings: LiveMapping[] = [];
  const requests: string[] = [];

  const allowed = (origin: string | undefined) => origin !== undefined && scopes.get(origin)?.state === 'allowed';

  async function openMapping(origin: string, body: Record<string, unknown>): Promise<LiveMapping> {
    const remote = String(body.remote ?? '');
    if (!/^wss?:\/\//.test(remote)) throw new Error('remote must be a ws:// or wss:// URL');
    const [host = '127.0.0.1', requestedPort = '0'] = String(body.local ?? '127.0.0.1:0').split(':');
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      bridge(socket, remote);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(Number(requestedPort), host, () => resolve());
    });
    const mapping: LiveMapping = {
      origin,
      ...(typeof body.label === 'string' ? { label: body.label } : {}),
      remote,
      local: `${host}:${(server.address() as AddressInfo).port}`,
      latency: 0,
      server,
      sockets,
    };
    mappings.push(mapping);
    return mapping;
  }

  function closeMapping(mapping: LiveMapping): Promise<void> {
    mappings.splice(mappings.indexOf(mapping), 1);
    mapping.sockets.forEach((socket) => socket.destroy());
    return new Promise((resolve) => mapping.server.close(() => resolve()));
  }

  const shown = ({ server: _server, sockets: _sockets, ...mapping }: LiveMapping): Mapping => mapping;
  const forClient = ({ label, remote, local, latency }: LiveMapping) => ({ label, remote, local, latency });

  const api = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://daemon').pathname;
    const origin = request.headers.origin;
    requests.push(`${request.method} ${path}`);

    const send = (status: number, body?: unknown) => {
      if (body === undefined) response.writeHead(status).end();
      else response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    const openCors = () => {
      response.setHeader('Access-Control-Allow-Origin', origin ?? '*');
      response.setHeader('Vary', 'Origin');
    };
    const preflight = (methods: string) => {
      response.setHeader('Access-Control-Allow-Methods', methods);
      response.setHeader('Access-Control-Allow-Headers', 'Content-Type');
      // Chromium asks before a public page may reach a loopback address (Private Network Access).
      if (request.headers['access-control-request-private-network']) {
        response.setHeader('Access-Control-Allow-Private-Network', 'true');
      }
      send(204);
    };

    const handle = async () => {
      if (path === '/version') {
        openCors();
        if (request.method === 'OPTIONS') return preflight('GET');
        return currentVersion === null ? send(404) : send(200, { version: currentVersion });
      }
      if (path === '/connect') {
        openCors();
        if (request.method === 'OPTIONS') return preflight('GET, POST');
        if (!origin) return send(400, { error: 'no origin' });
        if (request.method === 'GET') {
          const scope = scopes.get(origin);
          // Unknown sites get neither 201 nor 202, which the client reads as Invalid.
          return send(scope?.state === 'allowed' ? 202 : scope ? 201 : 200);
        }
        if (request.method === 'POST') {
          const body = await readJson(request);
          const features = Array.isArray(body.features) ? body.features.map(String) : [];
          const state = scopes.get(origin)?.state ?? (autoApprove ? 'allowed' : 'pending');
          scopes.set(origin, { origin, name: String(body.name ?? origin), features, state });
          return send(state === 'allowed' ? 202 : 201);
        }
        return send(405);
      }
      if (path === '/pool') {
        // Unapproved sites learn nothing, not even the answer: no CORS headers for them.
        if (!allowed(origin)) return send(403);
        openCors();
        if (request.method === 'OPTIONS') return preflight('GET, POST, DELETE');
        const own = mappings.filter((mapping) => mapping.origin === origin);
        if (request.method === 'GET') return send(200, own.map(forClient));
        const body = await readJson(request);
        if (request.method === 'POST') {
          const existing = own.find((mapping) => mapping.remote === body.remote);
          if (existing) return send(200, forClient(existing));
          try {
            return send(201, forClient(await openMapping(origin!, body)));
          } catch (error) {
            return send(400, { error: (error as Error).message });
          }
        }
        if (request.method === 'DELETE') {
          const mapping = own.find((candidate) => candidate.local === body.local);
          if (!mapping) return send(404);
          await closeMapping(mapping);
          return send(200);
        }
        return send(405);
      }
      return send(404);
    };
    handle().catch(() => {
      if (!response.headersSent) send(400);
    });
  });

  await new Promise<void>((resolve, reject) => {
    api.once('error', reject);
    api.listen(port, '127.0.0.1', () => resolve());
  });
  const boundPort = (api.address() as AddressInfo).port;

  const matching = (origin?: string) => [...scopes.values()].filter((scope) => !origin || scope.origin === origin);
  return {
    url: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    requests,
    scopes: () => [...scopes.values()].map((scope) => ({ ...scope })),
    mappings: () => mappings.map(shown),
    approve(origin) {
      matching(origin).forEach((scope) => (scope.state = 'allowed'));
    },
    async forget(origin) {
      const gone = new Set(matching(origin).map((scope) => scope.origin));
      gone.forEach((scope) => scopes.delete(scope));
      await Promise.all(mappings.filter((mapping) => gone.has(mapping.origin)).map(closeMapping));
    },
    setVersion(next) {
      currentVersion = next;
    },
    async close() {
      await Promise.all([...mappings].map(closeMapping));
      api.closeAllConnections();
      await new Promise<void>((resolve) => api.close(() => resolve()));
    },
  };
}
