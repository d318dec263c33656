import fs from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { DockerSettings } from '../../env';

export interface DockerConnection {
  options: Docker.DockerOptions;
  /** The engine's host name when it runs elsewhere (tcp/https/ssh), else undefined (a local socket). */
  remoteHost: string | undefined;
}

/** DOCKER_HOST (and DOCKER_CERT_PATH for TLS) as dockerode options. */
export function dockerConnection(settings: DockerSettings): DockerConnection {
  const url = new URL(settings.host);
  if (url.protocol === 'unix:') return { options: { socketPath: url.pathname }, remoteHost: undefined };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (url.protocol === 'ssh:') {
    return {
      options: { protocol: 'ssh', host, port: url.port || 22, username: decodeURIComponent(url.username) || undefined },
      remoteHost: host,
    };
  }
  const tls = url.protocol === 'https:' || settings.certPath !== undefined;
  const read = (file: string) => fs.readFileSync(path.join(settings.certPath!, file));
  return {
    options: {
      protocol: tls ? 'https' : 'http',
      host,
      port: url.port || (tls ? 2376 : 2375),
      ...(settings.certPath ? { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') } : {}),
    },
    remoteHost: isLoopback(host) ? undefined : host,
  };
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');
