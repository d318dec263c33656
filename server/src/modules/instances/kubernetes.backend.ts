import {
  ApiException,
  CoreV1Api,
  KubeConfig,
  NetworkingV1Api,
  Observable,
  type ConfigurationOptions,
  type RequestContext,
  type ResponseContext,
  type V1Pod,
} from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubernetesSettings } from '../../env';
import {
  ContainerEngineError,
  LABELS,
  type BackendOptions,
  type ContainerBackend,
  type ListedContainer,
} from './backend';
import {
  blockedServers,
  egressPolicy,
  labelsOf,
  labelValue,
  podOf,
  policyName,
  pullSecretName,
  pullSecretOf,
  resourceName,
  serviceOf,
} from './kubernetes.objects';

export interface KubernetesBackendOptions extends BackendOptions {
  settings: KubernetesSettings;
  /** A ready-made configuration (tests); otherwise `settings.kubeconfig`, else the in-cluster account. */
  kubeConfig?: KubeConfig;
  /** How long a pod may take to run (default 60 s; image pulls count). */
  startTimeoutMs?: number;
  /** How often a starting pod is looked at (default 250 ms). */
  pollMs?: number;
  /** How long one API request may take (default 30 s). */
  requestTimeoutMs?: number;
}

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
/** Waiting reasons after which a pod never runs without someone fixing the image or the spec. */
const FATAL_WAITING = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'CreateContainerConfigError']);

interface Apis {
  core: CoreV1Api;
  networking: NetworkingV1Api;
}

/**
 * Challenge containers as one Pod and one Service each in a dedicated namespace, in the spirit of
 * GZCTF's KubernetesManager: no privileges beyond KEPT_CAPABILITIES, no service-account token, no
 * service links, chosen name servers, the challenge's limits, and an egress NetworkPolicy that keeps
 * pods off `blockedCidrs`. The policy only works with a network plugin that enforces policies.
 */
export function createKubernetesBackend(options: KubernetesBackendOptions): ContainerBackend {
  const { settings } = options;
  const namespace = settings.namespace;
  const platform = labelValue(options.platformId);
  const policy = policyName(platform);
  const registries = options.registries ?? [];
  const pullSecret = registries.length > 0 ? pullSecretName(platform) : undefined;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const pollMs = options.pollMs ?? 250;
  const request = timeoutOptions(options.requestTimeoutMs ?? 30_000);
  let apis: Apis | undefined;

  // Loaded on first use, so a bad configuration fails the engine calls (retried) and not the start.
  function connect(): Apis {
    if (apis) return apis;
    const config = options.kubeConfig ?? loadConfig(settings);
    apis = { core: config.makeApiClient(CoreV1Api), networking: config.makeApiClient(NetworkingV1Api) };
    return apis;
  }

  async function ensureNamespace(core: CoreV1Api): Promise<void> {
    try {
      await core.readNamespace({ name: namespace }, request);
      return;
    } catch (error) {
      if (statusOf(error) !== 404) throw engineError(`could not read the namespace ${namespace}`, error);
    }
    try {
      await core.createNamespace(
        { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } },
        request,
      );
      options.log.info(`created the Kubernetes namespace ${namespace}`);
    } catch (error) {
      // Another platform instance made it first.
      if (statusOf(error) !== 409) throw engineError(`could not create the namespace ${namespace}`, error);
    }
  }

  /**
   * Creates an object of the platform's, or replaces the one there: an update without a
   * resourceVersion is unconditional, so the settings of this start win.
   */
  async function upsert(what: string, create: () => Promise<unknown>, replace: () => Promise<unknown>) {
    try {
      await create();
      return;
    } catch (error) {
      if (statusOf(error) !== 409) throw engineError(`could not create ${what}`, error);
    }
    try {
      await replace();
    } catch (error) {
      throw engineError(`could not update ${what}`, error);
    }
  }

  /** The registries' pull secret (CONTAINER_REGISTRIES), which every pod names. */
  async function ensurePullSecret(core: CoreV1Api, name: string): Promise<void> {
    const body = pullSecretOf(platform, registries);
    await upsert(
      `the image pull secret ${name}`,
      () => core.createNamespacedSecret({ namespace, body }, request),
      () => core.replaceNamespacedSecret({ name, namespace, body }, request),
    );
  }

  async function ensurePolicy(networking: NetworkingV1Api): Promise<void> {
    const body = egressPolicy(platform, options.blockedCidrs);
    await upsert(
      `the network policy ${policy}`,
      () => networking.createNamespacedNetworkPolicy({ namespace, body }, request),
      () => networking.replaceNamespacedNetworkPolicy({ name: policy, namespace, body }, request),
    );
  }

  async function remove(core: CoreV1Api, name: string, what: 'pod' | 'service'): Promise<void> {
    try {
      if (what === 'pod') {
        // Challenge processes keep no state worth a long graceful stop; the node gets its resources back sooner.
        await core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 1 }, request);
      } else {
        await core.deleteNamespacedService({ name, namespace }, request);
      }
    } catch (error) {
      if (statusOf(error) !== 404) throw engineError(`could not remove the ${what} ${name}`, error);
    }
  }

  async function waitRunning(core: CoreV1Api, name: string): Promise<void> {
    const deadline = Date.now() + startTimeoutMs;
    for (;;) {
      const pod = await core.readNamespacedPod({ name, namespace }, request).catch((error: unknown) => {
        throw engineError(`could not read the pod ${name}`, error);
      });
      const problem = startProblem(pod);
      if (problem) throw new ContainerEngineError(problem);
      if (pod.status?.phase === 'Running' && pod.status.podIP) return;
      if (Date.now() >= deadline) {
        throw new ContainerEngineError(
          `the pod did not run within ${startTimeoutMs / 1000} s (${describePending(pod)})`,
        );
      }
      await sleep(pollMs);
    }
  }

  return {
    kind: 'Kubernetes',

    async init() {
      const { core, networking } = connect();
      await ensureNamespace(core);
      await ensurePolicy(networking);
      if (pullSecret) await ensurePullSecret(core, pullSecret);
      if (options.blockedCidrs.length > 0) {
        options.log.info(
          `challenge pods may not connect to ${options.blockedCidrs.join(', ')} (needs a network plugin that enforces NetworkPolicy)`,
        );
      }
      const unreachable = blockedServers(settings.dns, options.blockedCidrs);
      if (unreachable.length > 0) {
        options.log.warn(
          `name servers ${unreachable.join(', ')} are in a blocked range: challenge pods will not resolve names`,
        );
      }
    },

    async create(spec) {
      const { core } = connect();
      const name = resourceName(spec.rowId);
      const labels = labelsOf(spec, platform);
      const created: Array<'pod' | 'service'> = [];
      try {
        await core.createNamespacedPod(
          { namespace, body: podOf(name, labels, spec, settings.dns, pullSecret) },
          request,
        );
        created.push('pod');
        const service = await core.createNamespacedService({ namespace, body: serviceOf(name, labels, spec) }, request);
        created.push('service');
        await waitRunning(core, name);
        const ip = service.spec?.clusterIP;
        const publicPort = spec.publish ? (service.spec?.ports?.[0]?.nodePort ?? null) : null;
        if (!ip || ip === 'None') throw new ContainerEngineError('the service got no cluster address');
        if (spec.publish && !publicPort) throw new ContainerEngineError('the service got no node port');
        return {
          containerId: name,
          ip,
          port: spec.port,
          publicIp: spec.publish ? options.publicEntry : null,
          publicPort,
        };
      } catch (error) {
        for (const what of created.reverse()) {
          await remove(core, name, what).catch((cleanup: unknown) =>
            options.log.warn(`${(cleanup as Error).message}; remove it by hand`),
          );
        }
        const failure = error instanceof ContainerEngineError ? error.message : engineError('', error).message;
        throw new ContainerEngineError(`could not start a container from ${spec.image}: ${failure}`, error);
      }
    },

    async destroy(containerId) {
      const { core } = connect();
      // The service goes first so nothing new is routed to a stopping pod.
      await remove(core, containerId, 'service');
      await remove(core, containerId, 'pod');
    },

    async list() {
      const { core } = connect();
      const pods = await core
        .listNamespacedPod({ namespace, labelSelector: `${LABELS.platform}=${platform}` }, request)
        .catch((error: unknown) => {
          throw engineError('could not list pods', error);
        });
      return pods.items.map((pod): ListedContainer => ({
        containerId: pod.metadata?.name ?? '',
        rowId: pod.metadata?.labels?.[LABELS.row] ?? null,
        // A pod being deleted still reports Running until its process ends; it is stopping.
        running: pod.status?.phase === 'Running' && !pod.metadata?.deletionTimestamp,
      }));
    },

    async close() {
      // Requests hold nothing between calls; no watchers are started.
    },
  };
}

function loadConfig(settings: KubernetesSettings): KubeConfig {
  const config = new KubeConfig();
  if (settings.kubeconfig) {
    try {
      config.loadFromFile(settings.kubeconfig);
    } catch (error) {
      // Only the first line: parser messages quote the file, which may hold a token.
      const reason = (error as Error).message.split('\n')[0];
      throw new ContainerEngineError(`could not load the kubeconfig ${settings.kubeconfig}: ${reason}`);
    }
    return config;
  }
  // Kubernetes mounts this token into pods that may call the API; without it there is nothing to use.
  if (!existsSync(SERVICE_ACCOUNT_TOKEN)) {
    throw new ContainerEngineError(
      'KUBECONFIG is not set and there is no service-account token (the platform does not run in a pod that may call the API)',
    );
  }
  config.loadFromCluster();
  return config;
}

/** Why a pod will never run, or undefined while it still may. */
function startProblem(pod: V1Pod): string | undefined {
  const status = pod.status;
  if (status?.phase === 'Failed' || status?.phase === 'Succeeded') {
    const exit = status.containerStatuses?.[0]?.state?.terminated;
    const detail = exit ? `exit code ${exit.exitCode}${exit.reason ? `, ${exit.reason}` : ''}` : status.reason;
    return `the container stopped at once${detail ? ` (${detail})` : ''}`;
  }
  for (const container of [...(status?.initContainerStatuses ?? []), ...(status?.containerStatuses ?? [])]) {
    const waiting = container.state?.waiting;
    if (waiting?.reason && FATAL_WAITING.has(waiting.reason)) {
      return waiting.message ? `${waiting.reason}: ${waiting.message}` : waiting.reason;
    }
  }
  return undefined;
}

function describePending(pod: V1Pod): string {
  const unscheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (unscheduled?.message) return unscheduled.message;
  const waiting = pod.status?.containerStatuses?.[0]?.state?.waiting;
  return waiting?.reason ?? pod.status?.phase ?? 'no status';
}

/** Every request gets a deadline, so a stalled API server cannot hold a start slot forever. */
function timeoutOptions(ms: number): ConfigurationOptions {
  return {
    middleware: [
      {
        pre: (context: RequestContext) => {
          context.setSignal(AbortSignal.timeout(ms));
          return new Observable(Promise.resolve(context));
        },
        post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}

function statusOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

/** The API server's own message (a Status object), never the request: that holds the credentials. */
function engineError(message: string, cause: unknown): ContainerEngineError {
  let detail: string | undefined;
  if (cause instanceof ApiException) {
    detail = statusMessage(cause.body) ?? (cause.code === 401 ? 'unauthorized' : `HTTP ${cause.code}`);
  } else if (cause instanceof Error) {
    detail = cause.name === 'AbortError' ? 'the API server did not answer in time' : cause.message;
  }
  return new ContainerEngineError([message, detail].filter(Boolean).join(': '), cause);
}

function statusMessage(body: unknown): string | undefined {
  try {
    const status = (typeof body === 'string' ? JSON.parse(body) : body) as { message?: unknown } | undefined;
    return typeof status?.message === 'string' ? status.message : undefined;
  } catch {
    return typeof body === 'string' && body ? body.slice(0, 200) : undefined;
  }
}
