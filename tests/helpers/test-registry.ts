import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A private image registry for the container tests (no registry image can be pulled here): the
 * Docker Registry HTTP API v2 as far as a pull goes, on 127.0.0.1 (which Docker treats as an
 * insecure registry, so plain HTTP is allowed), behind HTTP Basic auth like a private registry.
 * It holds one image, `repository:tag`, of one layer, and records every request and whether it
 * carried the right credentials.
 */
export interface TestRegistry {
  /** As in image names: `127.0.0.1:port`. */
  host: string;
  /** The image's full name. */
  image: string;
  /** Every request, with the status it was answered. */
  requests: Array<{ method: string; path: string; authorized: boolean; status: number }>;
  close(): Promise<void>;
}

interface Options {
  userName: string;
  password: string;
  repository: string;
  tag: string;
  /** The image's files as an uncompressed tar. */
  layer: Buffer;
  cmd: string[];
  /**
   * Answer every manifest request of the first pull 503, as a registry under load does for a
   * moment: until a second pull starts (its ping of `/v2/`), however the engine retries within one.
   */
  unavailableFirstPull?: boolean;
}

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const MANIFEST_TYPE = 'application/vnd.docker.distribution.manifest.v2+json';

export async function startTestRegistry(options: Options): Promise<TestRegistry> {
  const layer = gzipSync(options.layer);
  const config = Buffer.from(
    JSON.stringify({
      architecture: process.arch === 'x64' ? 'amd64' : process.arch,
      os: 'linux',
      config: { Cmd: options.cmd },
      rootfs: { type: 'layers', diff_ids: [digestOf(options.layer)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MANIFEST_TYPE,
      config: {
        mediaType: 'application/vnd.docker.container.image.v1+json',
        size: config.length,
        digest: digestOf(config),
      },
      layers: [
        { mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', size: layer.length, digest: digestOf(layer) },
      ],
    }),
  );
  const blobs = new Map([
    [digestOf(config), config],
    [digestOf(layer), layer],
  ]);
  const expected = `Basic ${Buffer.from(`${options.userName}:${options.password}`).toString('base64')}`;
  const requests: TestRegistry['requests'] = [];
  let pings = 0;
  const manifestPath = new RegExp(`^/v2/${options.repository}/manifests/(.+)$`);
  const blobPath = new RegExp(`^/v2/${options.repository}/blobs/(sha256:[0-9a-f]{64})$`);

  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://registry').pathname;
    const authorized = request.headers.authorization === expected;
    const record = { method: request.method ?? 'GET', path, authorized, status: 0 };
    if (path === '/v2/' || path === '/v2') pings += 1;
    requests.push(record);
    response.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
    const send = (status: number, body: Buffer, headers: Record<string, string> = {}) => {
      record.status = status;
      response.writeHead(status, { 'content-length': String(body.length), ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    const error = (status: number, code: string, headers: Record<string, string> = {}) =>
      send(status, Buffer.from(JSON.stringify({ errors: [{ code, message: code.toLowerCase() }] })), {
        'content-type': 'application/json',
        ...headers,
      });
    if (!authorized) return error(401, 'UNAUTHORIZED', { 'www-authenticate': 'Basic realm="test-registry"' });
    if (path === '/v2/' || path === '/v2') return send(200, Buffer.from('{}'), { 'content-type': 'application/json' });
    const reference = manifestPath.exec(path)?.[1];
    if (reference && options.unavailableFirstPull && pings < 2) return error(503, 'UNAVAILABLE');
    if (reference === options.tag || reference === digestOf(manifest)) {
      return send(200, manifest, { 'content-type': MANIFEST_TYPE, 'docker-content-digest': digestOf(manifest) });
    }
    const blob = blobs.get(blobPath.exec(path)?.[1] ?? '');
    if (blob) {
      return send(200, blob, { 'content-type': 'application/octet-stream', 'docker-content-digest': digestOf(blob) });
    }
    return error(404, reference ? 'MANIFEST_UNKNOWN' : 'NAME_UNKNOWN');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    image: `${host}/${options.repository}:${options.tag}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
