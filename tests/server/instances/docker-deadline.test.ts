import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { ContainerEngineError } from '../../../server/src/modules/instances/backend';
import { createDockerBackend } from '../../../server/src/modules/instances/docker.backend';
import { createLocalGate } from '../../../server/src/modules/instances/start-gate';
import { containerSpec, eventually } from './support';

/** A Docker backend talking to `port` on loopback. */
const backendAt = (port: number, timeouts: { requestTimeoutMs?: number; pullTimeoutMs?: number }) =>
  createDockerBackend({
    platformId: randomUUID(),
    publicEntry: '127.0.0.1',
    blockedCidrs: [],
    log: { info: () => {}, warn: () => {} },
    settings: { host: `tcp://127.0.0.1:${port}`, certPath: undefined, publishProxyPorts: false },
    network: 'gzctf-test',
    firewall: false,
    portMapping: 'Default',
    ...timeouts,
  });

const listening = async <T extends net.Server>(server: T): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
};

// No dockerd here: the engines are loopback servers that misbehave. Without deadlines these calls
// never settle, so each test carries a generous timeout of its own to fail rather than hang.
describe('Docker engine calls that never finish', () => {
  const sockets = new Set<net.Socket>();
  const servers: net.Server[] = [];
  after(() => {
    for (const socket of sockets) socket.destroy();
    for (const server of servers) server.close();
  });

  test(
    'a request the engine accepts and never answers fails the start and frees its slot',
    { timeout: 60_000 },
    async () => {
      const silent = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => {});
      });
      servers.push(silent);
      const backend = backendAt(await listening(silent), { requestTimeoutMs: 200 });
      const gate = createLocalGate(1);

      await assert.rejects(
        gate.run(() => backend.create(containerSpec())),
        ContainerEngineError,
      );
      assert.deepEqual(gate.stats(), { running: 0, waiting: 0 });
    },
  );

  test(
    'a pull that trickles progress forever fails at its deadline and its stream is closed',
    { timeout: 60_000 },
    async () => {
      let pullClosed = false;
      const engine = http.createServer((request, response) => {
        if (request.url?.includes('/containers/create')) {
          response.writeHead(404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ message: 'No such image: example/big:1' }));
          return;
        }
        if (request.url?.includes('/images/create')) {
          response.writeHead(200, { 'content-type': 'application/json' });
          const timer = setInterval(() => response.write(`${JSON.stringify({ status: 'Downloading' })}\n`), 20);
          response.on('close', () => {
            clearInterval(timer);
            pullClosed = true;
          });
          return;
        }
        response.writeHead(500).end();
      });
      engine.on('connection', (socket) => sockets.add(socket));
      servers.push(engine);
      // The socket is never idle for long: only the pull's own deadline can end it.
      const backend = backendAt(await listening(engine), { requestTimeoutMs: 5_000, pullTimeoutMs: 300 });

      await assert.rejects(backend.create(containerSpec({ image: 'example/big:1' })), ContainerEngineError);
      await eventually(async () => pullClosed);
    },
  );
});
