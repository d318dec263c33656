import { createHash } from 'node:crypto';
import Docker from 'dockerode';
import type { DockerSettings, RegistryCredentials } from '../../env';
import {
  ContainerEngineError,
  KEPT_CAPABILITIES,
  LABELS,
  type BackendOptions,
  type ContainerBackend,
  type ContainerSpec,
  type ListedContainer,
  type StartedContainer,
} from './backend';
import { dockerConnection } from './docker.connection';
import { installFirewall } from './docker.firewall';
import { credentialsFor, serverAddress } from './registries';

export interface DockerBackendOptions extends BackendOptions {
  settings: DockerSettings;
  /** The network challenge containers join; created with inter-container traffic off when missing. */
  network: string;
  /** Install the host firewall (local engine only). */
  firewall: boolean;
  /** With PlatformProxy, published ports are for the proxy: their address is the engine's host. */
  portMapping: 'Default' | 'PlatformProxy';
  /** How long one engine request may go without an answer (default 60 s). */
  requestTimeoutMs?: number;
  /** How long a missing image's pull may take, all tries and its progress included (default 10 min). */
  pullTimeoutMs?: number;
}

/** Whether the engine answers at all (CONTAINER_PROVIDER unset picks Docker only then). */
export async function dockerAnswers(settings: DockerSettings, timeoutMs = 3000): Promise<boolean> {
  const docker = new Docker({ ...dockerConnection(settings).options, timeout: timeoutMs });
  try {
    await docker.ping();
    return true;
  } catch {
    return false;
  }
}

/**
 * Challenge containers on a Docker engine through dockerode. Every container gets the platform's
 * labels, the team's flag and id in its environment and nothing else, the challenge's limits, no
 * privileges beyond KEPT_CAPABILITIES, no-new-privileges, a process limit, no mounts, and the
 * challenge network only.
 */
export function createDockerBackend(options: DockerBackendOptions): ContainerBackend {
  const connection = dockerConnection(options.settings);
  // Every request gets a deadline (the socket is dropped after this long without an answer), so a
  // wedged engine cannot hold a start slot, or the sweep, forever.
  const docker = new Docker({ ...connection.options, timeout: options.requestTimeoutMs ?? 60_000 });
  const pullTimeoutMs = options.pullTimeoutMs ?? 10 * 60_000;
  let storageLimits = false;

  async function ensureNetwork(): Promise<string> {
    const bridge = `gz-${createHash('sha256').update(options.network).digest('hex').slice(0, 12)}`;
    const existing = await inspectNetwork(docker, options.network);
    if (existing) {
      if (existing.Options?.['com.docker.network.bridge.enable_icc'] !== 'false') {
        options.log.warn(
          `network ${options.network} lets containers talk to each other: teams could reach other teams' instances`,
        );
      }
      return existing.Options?.['com.docker.network.bridge.name'] ?? `br-${existing.Id.slice(0, 12)}`;
    }
    try {
      await docker.createNetwork({
        Name: options.network,
        Driver: 'bridge',
        CheckDuplicate: true,
        Labels: { [LABELS.platform]: 'shared' },
        Options: {
          'com.docker.network.bridge.enable_icc': 'false',
          'com.docker.network.bridge.name': bridge,
        },
      });
      options.log.info(`created the challenge network ${options.network} (bridge ${bridge})`);
    } catch (error) {
      // Another platform instance made it first.
      if (statusOf(error) !== 409) throw engineError('could not create the challenge network', error);
    }
    return bridge;
  }

  return {
    kind: 'Docker',

    async init() {
      const info = (await docker.info().catch((error: unknown) => {
        throw engineError('the Docker engine does not answer', error);
      })) as { Driver?: string; DriverStatus?: Array<[string, string]> };
      storageLimits = supportsStorageLimits(info);
      if (!storageLimits) {
        options.log.info(
          `storage driver ${info.Driver ?? '?'} cannot limit container storage; storageLimit is not applied`,
        );
      }
      const bridge = await ensureNetwork();
      if (!options.firewall) return;
      if (connection.remoteHost) {
        options.log.warn(
          `the engine runs on ${connection.remoteHost}: install the challenge firewall there (see the README)`,
        );
        return;
      }
      await installFirewall(bridge, options.blockedCidrs, options.log);
    },

    async create(spec) {
      const port = `${spec.port}/tcp`;
      const create = () =>
        docker.createContainer({
          name: `gzctf-${spec.rowId}`,
          Image: spec.image,
          Env: Object.entries(spec.env).map(([key, value]) => `${key}=${value}`),
          Labels: {
            [LABELS.platform]: options.platformId,
            [LABELS.row]: spec.rowId,
            [LABELS.team]: spec.owner.team,
            [LABELS.user]: spec.owner.user,
            [LABELS.challenge]: spec.owner.challenge,
          },
          ExposedPorts: { [port]: {} },
          HostConfig: hostConfig(spec, options.network, storageLimits),
        });
      let container: Docker.Container;
      try {
        container = await create().catch(async (error: unknown) => {
          if (statusOf(error) !== 404) throw error;
          // A registry that trickles data never leaves the socket idle: the pull has a deadline of its own.
          await withDeadline(pullTimeoutMs, `the pull did not finish within ${pullTimeoutMs / 1000} s`, (signal) =>
            pull(docker, spec.image, options.registries ?? [], signal),
          );
          return create();
        });
      } catch (error) {
        throw engineError(`could not create a container from ${spec.image}`, error);
      }
      try {
        await container.start();
        const inspected = await container.inspect();
        const network = inspected.NetworkSettings.Networks[options.network];
        if (!network?.IPAddress) throw new Error('the container has no address on the challenge network');
        const published = inspected.NetworkSettings.Ports?.[port]?.[0]?.HostPort;
        if (spec.publish && !published) throw new Error(`port ${spec.port} was not published`);
        const publicIp =
          options.portMapping === 'PlatformProxy' ? (connection.remoteHost ?? '127.0.0.1') : options.publicEntry;
        return {
          containerId: inspected.Id,
          ip: network.IPAddress,
          port: spec.port,
          publicIp: published ? publicIp : null,
          publicPort: published ? Number(published) : null,
        } satisfies StartedContainer;
      } catch (error) {
        await container.remove({ force: true }).catch(() => undefined);
        throw engineError(`could not start a container from ${spec.image}`, error);
      }
    },

    async destroy(containerId) {
      try {
        await docker.getContainer(containerId).remove({ force: true, v: true });
      } catch (error) {
        // Gone already, or being removed by another request.
        if (statusOf(error) === 404 || statusOf(error) === 409) return;
        throw engineError('could not remove a container', error);
      }
    },

    async list() {
      const containers = await docker
        .listContainers({ all: true, filters: { label: [`${LABELS.platform}=${options.platformId}`] } })
        .catch((error: unknown) => {
          throw engineError('could not list containers', error);
        });
      return containers.map((container): ListedContainer => ({
        containerId: container.Id,
        rowId: container.Labels[LABELS.row] ?? null,
        running: container.State === 'running',
      }));
    },

    async close() {
      // dockerode keeps no connection open between requests.
    },
  };
}

function hostConfig(spec: ContainerSpec, network: string, storageLimits: boolean): Docker.HostConfig {
  const memory = spec.memoryMb * 1024 * 1024;
  return {
    NetworkMode: network,
    PortBindings: spec.publish ? { [`${spec.port}/tcp`]: [{ HostIp: '', HostPort: '' }] } : {},
    Memory: memory,
    // No swap beyond the memory limit.
    MemorySwap: memory,
    NanoCpus: spec.cpuCount * 100_000_000,
    PidsLimit: spec.pidsLimit,
    ...(storageLimits ? { StorageOpt: { size: `${spec.storageMb}M` } } : {}),
    Privileged: false,
    CapDrop: ['ALL'],
    CapAdd: [...KEPT_CAPABILITIES],
    SecurityOpt: ['no-new-privileges:true'],
    Binds: [],
    Mounts: [],
    IpcMode: 'private',
    RestartPolicy: { Name: 'no' },
    // A chatty challenge must not fill the engine's disk with logs.
    LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
  };
}

/** `--storage-opt size` works on these drivers only (overlay2 needs xfs with project quotas). */
function supportsStorageLimits(info: { Driver?: string; DriverStatus?: Array<[string, string]> }): boolean {
  const backing = info.DriverStatus?.find(([key]) => key === 'Backing Filesystem')?.[1];
  if (info.Driver === 'overlay2') return backing === 'xfs';
  return ['devicemapper', 'btrfs', 'zfs', 'windowsfilter'].includes(info.Driver ?? '');
}

async function inspectNetwork(docker: Docker, name: string) {
  try {
    return (await docker.getNetwork(name).inspect()) as { Id: string; Options?: Record<string, string> };
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw engineError('could not inspect the challenge network', error);
  }
}

/**
 * Tries per pull of a missing image (GZCTF's too). Registries and the networks to them fail for a
 * moment (a 503 under load, a reset connection), and the player would otherwise have to start again.
 */
const PULL_TRIES = 3;
/** The wait before the second try, doubled before the third. */
const PULL_RETRY_MS = 500;
/**
 * What the engine says when the registry refused the image for good: wrong or missing credentials,
 * no such repository or tag. Trying again cannot help, so the player hears at once. Docker answers
 * most pull failures with status 500, so its words are all there is to tell them apart by.
 */
const REFUSED_PULL =
  /unauthori[sz]ed|denied|credentials|not found|manifest unknown|name unknown|does not exist|invalid reference/i;

/** Pulls a missing image, with its registry's credentials, trying again after a passing failure. */
async function pull(docker: Docker, image: string, registries: RegistryCredentials[], signal: AbortSignal) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await pullOnce(docker, image, registries, signal);
    } catch (error) {
      if (signal.aborted || attempt >= PULL_TRIES || REFUSED_PULL.test(messageOf(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, PULL_RETRY_MS * 2 ** (attempt - 1)));
    }
  }
}

/** One pull, with its registry's credentials when CONTAINER_REGISTRIES has them; `signal` ends it. */
async function pullOnce(
  docker: Docker,
  image: string,
  registries: RegistryCredentials[],
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const credentials = credentialsFor(image, registries);
  const stream = (await docker.pull(image, {
    abortSignal: signal,
    ...(credentials
      ? {
          authconfig: {
            username: credentials.userName,
            password: credentials.password,
            serveraddress: serverAddress(credentials),
          },
        }
      : {}),
  })) as NodeJS.ReadableStream & { destroy(): void };
  const stop = () => stream.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Fails `work` with an engine error once `ms` have passed, whatever it is doing then, and aborts
 * its signal so what it holds (a request, a stream) is let go.
 */
async function withDeadline<T>(ms: number, message: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ContainerEngineError(message));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number }).statusCode;
}

/** The engine's own words: the JSON answer's message when it sent one. */
function messageOf(error: unknown): string {
  return (error as { json?: { message?: string } }).json?.message ?? (error as Error).message ?? '';
}

function engineError(message: string, cause: unknown): ContainerEngineError {
  const detail = messageOf(cause);
  return new ContainerEngineError(detail ? `${message}: ${detail}` : message, cause);
}
