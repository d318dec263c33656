import type { RegistryCredentials } from '../../env';

/**
 * What the instances service asks of a container engine. Two implementations: `docker.backend.ts`
 * (dockerode) and `kubernetes.backend.ts` (@kubernetes/client-node). The service owns every rule
 * (limits, lifetimes, rows); a backend only starts, stops and lists containers.
 */
export interface ContainerSpec {
  /** The `containers` row id, a random UUID: labelled on the container so rows and containers match. */
  rowId: string;
  image: string;
  /** The TCP port the challenge listens on inside the container. */
  port: number;
  memoryMb: number;
  /** Units of 0.1 CPU (GZCTF's cpuCount). */
  cpuCount: number;
  storageMb: number;
  /** Most processes the container may run. */
  pidsLimit: number;
  /** The whole environment the platform adds: GZCTF_FLAG (when the challenge has one) and GZCTF_TEAM_ID. */
  env: Record<string, string>;
  /** Who the container is for; `team` is `admin` for an admin's test container. */
  owner: { team: string; user: string; challenge: string };
  /**
   * Make the port reachable from outside the engine: players connect to it (`Default` mapping), or
   * the proxy does, when the engine runs on another host.
   */
  publish: boolean;
}

export interface StartedContainer {
  /** The engine's id: Docker container id, Kubernetes pod name. */
  containerId: string;
  /** Address and port inside the challenge network, what the proxy dials first. */
  ip: string;
  port: number;
  /** Where the port is published (`publish`), else null. */
  publicIp: string | null;
  publicPort: number | null;
}

export interface ListedContainer {
  containerId: string;
  /** The `containers` row the container was made for (its label), or null when unlabelled. */
  rowId: string | null;
  running: boolean;
}

export interface ContainerBackend {
  readonly kind: 'Docker' | 'Kubernetes';
  /** Prepares what containers need (network, firewall, namespace, policy). Idempotent; once at start. */
  init(): Promise<void>;
  /** Creates and starts a container; resolves once it runs and has an address. Cleans up after itself on failure. */
  create(spec: ContainerSpec): Promise<StartedContainer>;
  /** Stops and removes a container. An id the engine does not know counts as removed. */
  destroy(containerId: string): Promise<void>;
  /** This platform's containers only (by the platform label), running or not. */
  list(): Promise<ListedContainer[]>;
  /** Releases connections (watchers, sockets). */
  close(): Promise<void>;
}

/**
 * Label keys on every container (Docker labels; Kubernetes labels on the pod and its service). The
 * platform label holds the installation id, so several platforms can share one engine.
 */
export const LABELS = {
  platform: 'gzctf/platform',
  row: 'gzctf/container',
  team: 'gzctf/team',
  user: 'gzctf/user',
  challenge: 'gzctf/challenge',
} as const;

/**
 * Linux capabilities a challenge container keeps; every other one is dropped. These are what common
 * challenge images need to start: switching to an unprivileged user (SETUID, SETGID), preparing files
 * (CHOWN, DAC_OVERRIDE, FOWNER), binding a port below 1024 (NET_BIND_SERVICE), chroot jails
 * (SYS_CHROOT) and signalling their own children (KILL). Raw sockets (NET_RAW), device nodes
 * (MKNOD), capability games (SETFCAP, SETPCAP) and the rest of Docker's defaults are gone.
 */
export const KEPT_CAPABILITIES = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'SETGID',
  'SETUID',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'KILL',
] as const;

/** Thrown by a backend when the engine refuses or fails; the service answers 400 with a clear title. */
export class ContainerEngineError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ContainerEngineError';
  }
}

/** What every backend is built with. */
export interface BackendOptions {
  /** The installation id: the value of the platform label. */
  platformId: string;
  /** The host players are shown for published ports. */
  publicEntry: string;
  /** Destinations containers may not open connections to. */
  blockedCidrs: string[];
  /** Credentials for pulling from private registries, by host (none: every pull is anonymous). */
  registries?: RegistryCredentials[];
  log: BackendLog;
}

export interface BackendLog {
  info(message: string): void;
  warn(message: string): void;
}
