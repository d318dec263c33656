import type { RegistryCredentials } from '../../env';

/**
 * Private registries' credentials (CONTAINER_REGISTRIES, GZCTF's `Registries`): which ones an image
 * is pulled with, as Docker names registries. An image's registry is its first path part when that
 * looks like a host (has a dot or a port, or is `localhost`); otherwise it is Docker Hub.
 */

const DOCKER_HUB = 'docker.io';
/** The address Docker and kubelets use for Docker Hub's credentials. */
const DOCKER_HUB_AUTH = 'https://index.docker.io/v1/';

export function registryOf(image: string): string {
  const slash = image.indexOf('/');
  if (slash < 0) return DOCKER_HUB;
  const first = image.slice(0, slash);
  const host = first.includes('.') || first.includes(':') || first === 'localhost' ? first.toLowerCase() : DOCKER_HUB;
  return host === 'index.docker.io' || host === 'registry-1.docker.io' ? DOCKER_HUB : host;
}

/** The credentials to pull `image` with, or undefined to pull it anonymously. */
export function credentialsFor(image: string, registries: RegistryCredentials[]): RegistryCredentials | undefined {
  const registry = registryOf(image);
  return registries.find((entry) => entry.host === registry);
}

/** The address credentials are sent for, as Docker's auth config and a kubelet's config name it. */
export function serverAddress(credentials: RegistryCredentials): string {
  return credentials.host === DOCKER_HUB ? DOCKER_HUB_AUTH : credentials.host;
}

/** A `kubernetes.io/dockerconfigjson` secret's one value: every registry's credentials. */
export function dockerConfigJson(registries: RegistryCredentials[]): string {
  const auths = Object.fromEntries(
    registries.map((entry) => [
      serverAddress(entry),
      {
        username: entry.userName,
        password: entry.password,
        auth: Buffer.from(`${entry.userName}:${entry.password}`).toString('base64'),
      },
    ]),
  );
  return JSON.stringify({ auths });
}
