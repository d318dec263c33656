import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { bus } from '../../lib/bus';
import { removeChallengeCaptures } from './captures.service';
import type { BackendOptions, ContainerBackend } from './backend';
import { createDockerBackend, dockerAnswers } from './docker.backend';
import { reconcile, sweepExpired } from './instances.maintenance';
import { InstanceService } from './instances.service';
import { ContainerProxy, type ProxyOptions } from './proxy';
import { createLocalGate, createRedisGate } from './start-gate';

declare module 'fastify' {
  interface FastifyInstance {
    instances: InstanceService;
    containerProxy: ContainerProxy;
  }
}

export interface InstancesOptions {
  /** How often expired containers are looked for (default 30 s: gone within a minute of expiry). */
  sweepIntervalMs?: number;
  /** How often rows and engine are reconciled after the start-up pass (default 60 s). */
  reconcileIntervalMs?: number;
  /** A ready-made backend (tests of a backend through the HTTP API). */
  backend?: ContainerBackend;
  proxy?: ProxyOptions;
}

/**
 * Picks the container backend (CONTAINER_PROVIDER, or Docker when the engine answers, else none),
 * prepares it, reconciles rows and engine at start, and sweeps expired containers while running.
 */
async function instances(app: FastifyInstance, options: InstancesOptions) {
  const { env } = app;
  const settings = env.containers;
  const platformId = app.installationId;
  const log = {
    info: (message: string) => app.log.info(message),
    warn: (message: string) => app.log.warn(message),
  };
  const serviceLog = { warn: (object: object, message: string) => app.log.warn(object, message), info: log.info };
  const base: BackendOptions = {
    platformId,
    publicEntry: settings.publicEntry,
    blockedCidrs: settings.blockedCidrs,
    registries: settings.registries,
    log,
  };

  let backend: ContainerBackend | null = options.backend ?? null;
  if (!backend) {
    const provider = settings.provider ?? ((await dockerAnswers(settings.docker)) ? 'Docker' : 'None');
    if (provider === 'Docker') {
      backend = createDockerBackend({
        ...base,
        settings: settings.docker,
        network: settings.network,
        firewall: settings.firewall,
        portMapping: env.portMapping,
      });
    } else if (provider === 'Kubernetes') {
      // Loaded only when used: the Kubernetes client is large.
      const { createKubernetesBackend } = await import('./kubernetes.backend');
      backend = createKubernetesBackend({ ...base, settings: settings.kubernetes });
    } else {
      app.log.info(
        settings.provider === 'None'
          ? 'container challenges are off (CONTAINER_PROVIDER=None)'
          : `no container engine answers at ${settings.docker.host}: container challenges cannot start (set CONTAINER_PROVIDER to choose one)`,
      );
    }
  }
  if (backend && settings.trafficCapture && env.portMapping !== 'PlatformProxy') {
    app.log.warn(
      'TRAFFIC_CAPTURE records proxied connections only: it has no effect unless PORT_MAPPING=PlatformProxy',
    );
  }

  let preparing: Promise<void> | undefined;
  const ready = () => {
    preparing ??= (backend?.init() ?? Promise.resolve()).catch((error: unknown) => {
      preparing = undefined;
      throw error;
    });
    return preparing;
  };
  const gate = app.redis
    ? createRedisGate({
        redis: app.redis,
        // The prefix carries the installation id: platforms sharing an engine and a Redis keep apart.
        key: `${app.redisPrefix}container-starts`,
        limit: settings.startConcurrency,
      })
    : createLocalGate(settings.startConcurrency);
  const service = new InstanceService({
    db: app.db,
    env,
    settings: app.settings,
    backend,
    ready,
    gate,
    log: serviceLog,
  });
  app.decorate('instances', service);
  const proxy = new ContainerProxy(
    {
      db: app.db,
      env,
      cache: app.cache,
      log: { debug: (object, message) => app.log.debug(object, message), warn: serviceLog.warn },
    },
    options.proxy,
  );
  app.decorate('containerProxy', proxy);
  service.events.on('removed', (rowId) => void proxy.closeContainer(rowId));

  const onRemoved = ({ containerIds }: { containerIds: string[] }) => void service.stopOrphans(containerIds);
  bus.on('containersRemoved', onRemoved);
  const onChallengesRemoved = ({ challengeIds }: { challengeIds: number[] }) =>
    void removeChallengeCaptures(env.dataDir, challengeIds).catch((error: unknown) =>
      serviceLog.warn({ err: error }, 'captures of deleted challenges not removed'),
    );
  bus.on('challengesRemoved', onChallengesRemoved);

  app.addHook('onReady', async () => {
    proxy.start();
    if (!backend) return;
    const engine = backend;
    const deps = { db: app.db, backend: engine, service, log: serviceLog };
    // A platform whose engine is down still starts; container calls then answer 400 until it is back.
    try {
      await ready();
    } catch (error) {
      app.log.error({ err: error }, 'the container engine is not ready; container calls will retry');
    }
    // Rows and engine are shared by every instance: one of them (the leader) reconciles and sweeps,
    // first when it takes the lead, then on its timers.
    await app.leader.whenElected(() => ready().then(() => reconcile(deps)));
    app.leader.every('container sweep', options.sweepIntervalMs ?? 30_000, () =>
      ready().then(() => sweepExpired(deps)),
    );
    app.leader.every('container reconciliation', options.reconcileIntervalMs ?? 60_000, () =>
      ready().then(() => reconcile(deps)),
    );
  });
  app.addHook('onClose', async () => {
    bus.off('containersRemoved', onRemoved);
    bus.off('challengesRemoved', onChallengesRemoved);
    proxy.stop();
    await gate.close();
    await backend?.close();
  });
}

export default fp(instances, { name: 'instances', dependencies: ['db', 'settings', 'cache', 'leader'] });
