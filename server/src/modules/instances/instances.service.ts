import { EventEmitter } from 'node:events';
import type { components } from '../../contract/api.generated';
import type { Database, Db } from '../../db/client';
import type { ChallengeType, EventType } from '../../db/schema/enums';
import type { Env } from '../../env';
import { generateTestFlag } from '../../lib/flag-template';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import type { SessionUser } from '../../plugins/app/auth';
import type { SettingsStore } from '../settings';
import { toTeamModel } from '../teams';
import { bus } from '../../lib/bus';
import { findChallenge, findEnabledChallenge, lockChallenge, setTestContainer, type ChallengeRow } from '../challenges';
import { insertEvent } from '../notices';
import { lockParticipationRow, playContext } from '../participations';
import { ContainerEngineError, type ContainerBackend, type ContainerSpec, type StartedContainer } from './backend';
import { toContainerInfo, type ContainerInfoModel } from './container-info';
import { StartsInProgress } from './instances.maintenance';
import * as repo from './instances.repository';
import type { ContainerRow } from './instances.repository';
import type { StartGate } from './start-gate';
import { prepareInstance } from './team-instance.service';

type Schemas = components['schemas'];

/** GZCTF's per-instance throttle on create and destroy (reference §5.9). */
export const OPERATION_INTERVAL_MS = 10_000;
const MINUTE = 60_000;

export const isContainerType = (type: ChallengeType) => type === 'StaticContainer' || type === 'DynamicContainer';

export interface InstanceServiceDeps {
  db: Database;
  env: Env;
  settings: SettingsStore;
  /** Null with CONTAINER_PROVIDER=None: every container call answers 400. */
  backend: ContainerBackend | null;
  /** Resolves once the backend is prepared (network, firewall…); retried on the next call after a failure. */
  ready: () => Promise<void>;
  gate: StartGate;
  log: { warn(object: object, message: string): void; info(message: string): void };
  now?: () => number;
  /** How often starts in progress renew their Pending rows (default RENEW_START_MS). */
  startRenewMs?: number;
}

export interface InstanceEvents {
  /** A container row went: its proxy sessions end, cached proxy lookups of it are dropped. */
  removed: [rowId: string];
}

/**
 * Owns challenge containers (reference §5.9): players' instances (create, extend, destroy), the
 * admin list and force-destroy, admins' test containers, and removal. A container is a row first
 * (status Pending, counted against the team's limit) and then an engine container; destroying stops
 * the engine's container before the row goes, so a failed destroy leaves the row for a retry.
 */
export class InstanceService {
  readonly events = new EventEmitter<InstanceEvents>();
  private readonly now: () => number;
  private readonly starts: StartsInProgress;

  constructor(private readonly deps: InstanceServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.starts = new StartsInProgress({ db: deps.db, now: this.now, log: deps.log, renewMs: deps.startRenewMs });
  }

  get enabled(): boolean {
    return this.deps.backend !== null;
  }

  get isProxy(): boolean {
    return this.deps.env.portMapping === 'PlatformProxy';
  }

  /** Containers running on the platform now (every instance's), for the metrics. */
  countRunning(): Promise<number> {
    return repo.countRunningContainers(this.deps.db);
  }

  /** Players' entry and countdown on the challenge view. */
  async contextOf(gameInstanceId: number): Promise<{ closeTime: number | null; instanceEntry: string | null }> {
    const container = await repo.findInstanceContainer(this.deps.db, gameInstanceId);
    if (!container || container.status !== 'Running') return { closeTime: null, instanceEntry: null };
    const info = toContainerInfo(container);
    return { closeTime: info.expectStopAt, instanceEntry: info.entry };
  }

  // The engine is asked for only after the context checks (reference §2.5): an unknown game or
  // challenge is a 404 and a non-player's request a 400 of its own, whatever the engine's state.
  async create(user: SessionUser, gameId: number, challengeId: number): Promise<ContainerInfoModel> {
    const { db } = this.deps;
    const { game, participation, teamName } = await playContext(db, gameId, user);
    const challenge = await this.containerChallenge(gameId, challengeId);
    const backend = await this.backend();
    const policy = (await this.deps.settings.get()).containerPolicy;
    const at = new Date(this.now());
    const { row, instance, previousOperation, evicted } = await db.transaction(async (tx) => {
      await lockParticipationRow(tx, participation.id);
      const instance = await prepareInstance(tx, game, participation, challenge);
      this.throttle(instance.lastContainerOperation);
      if (await repo.findInstanceContainer(tx, instance.id)) throw badRequest('container.alreadyRunning');
      let evicted: Awaited<ReturnType<typeof repo.listTeamContainers>> = [];
      if (game.containerCountLimit > 0) {
        const mine = await repo.listTeamContainers(tx, participation.id);
        if (mine.length >= game.containerCountLimit) {
          if (!policy.autoDestroyOnLimitReached) {
            throw badRequest('container.limitReached', { limit: game.containerCountLimit });
          }
          evicted = mine.slice(0, mine.length - game.containerCountLimit + 1);
          await repo.deleteContainers(
            tx,
            evicted.map((entry) => entry.container.id),
          );
        }
      }
      const row = await this.insertPending(tx, challenge, at, policy.defaultLifetime, instance.id);
      await repo.setLastContainerOperation(tx, instance.id, at);
      return { row, instance, previousOperation: instance.lastContainerOperation, evicted };
    });
    const actor = { user, teamId: participation.teamId, teamName, gameId };
    for (const { container, challengeId: evictedChallenge, challengeTitle } of evicted) {
      await this.stopEngineContainer(container, backend);
      await this.recordEvent(actor, 'ContainerDestroy', evictedChallenge, challengeTitle);
    }
    const env: Record<string, string> = { GZCTF_TEAM_ID: String(participation.teamId) };
    if (challenge.type === 'DynamicContainer' && instance.flag) env.GZCTF_FLAG = instance.flag;
    const running = await this.start(backend, row, challenge, env, {
      team: String(participation.teamId),
      user: user.id,
      challenge: String(challenge.id),
    }).catch(async (error: unknown) => {
      // A start that never happened should not hold the team back for the throttle's ten seconds,
      // but a destroy of it meanwhile (the reason it failed) keeps its own time.
      await repo.restoreLastContainerOperation(db, instance.id, at, previousOperation);
      throw error;
    });
    await this.recordEvent(actor, 'ContainerStart', challenge.id, challenge.title);
    return toContainerInfo(running);
  }

  async extend(user: SessionUser, gameId: number, challengeId: number): Promise<ContainerInfoModel> {
    const { db } = this.deps;
    const { participation } = await playContext(db, gameId, user);
    const challenge = await this.containerChallenge(gameId, challengeId);
    await this.backend();
    const policy = (await this.deps.settings.get()).containerPolicy;
    const row = await db.transaction(async (tx) => {
      const instance = await repo.lockOrCreateInstance(tx, participation.id, challenge.id);
      const container = await repo.findInstanceContainer(tx, instance.id);
      if (!container || container.status !== 'Running') throw badRequest('container.notFound');
      const now = this.now();
      if (container.expectStopAt.getTime() - now > policy.renewalWindow * MINUTE) {
        throw badRequest('container.extendTooEarly', { minutes: policy.renewalWindow });
      }
      const from = Math.max(container.expectStopAt.getTime(), now);
      // A destroy removes the row after its lock is released, and the sweep claims an expired one
      // without it, so either can come between the read and this.
      const extended = await repo.setExpectStopAt(tx, container.id, new Date(from + policy.extensionDuration * MINUTE));
      if (!extended) throw badRequest('container.notFound');
      return extended;
    });
    return toContainerInfo(row);
  }

  async destroy(user: SessionUser, gameId: number, challengeId: number): Promise<void> {
    const { db } = this.deps;
    const { participation, teamName } = await playContext(db, gameId, user);
    const challenge = await this.containerChallenge(gameId, challengeId);
    const backend = await this.backend();
    const container = await db.transaction(async (tx) => {
      await lockParticipationRow(tx, participation.id);
      const instance = await repo.lockOrCreateInstance(tx, participation.id, challenge.id);
      const container = await repo.findInstanceContainer(tx, instance.id);
      if (!container) throw badRequest('container.notFound');
      this.throttle(instance.lastContainerOperation);
      await repo.setLastContainerOperation(tx, instance.id, new Date(this.now()));
      return container;
    });
    if (await this.remove(container, backend)) {
      await this.recordEvent(
        { user, teamId: participation.teamId, teamName, gameId },
        'ContainerDestroy',
        challenge.id,
        challenge.title,
      );
    }
  }

  /** Admin list (reference §2.2), with optional paging and filters beyond GZCTF. */
  async list(filter: repo.AdminFilter): Promise<Schemas['ArrayResponseOfContainerInstanceModel']> {
    const { rows, total } = await repo.listGameContainers(this.deps.db, filter);
    const data = rows.map(({ container, team, challenge }) => ({
      team: toTeamModel(team),
      challenge,
      image: container.image,
      containerGuid: container.id,
      containerId: container.containerId,
      startedAt: container.startedAt.getTime(),
      expectStopAt: container.expectStopAt.getTime(),
      ip: container.publicIp ?? container.ip,
      port: container.publicPort ?? container.port,
    }));
    return { data, length: data.length, total };
  }

  /** Admin force-destroy of any container by row id. */
  async destroyById(id: string): Promise<void> {
    const container = await repo.findContainer(this.deps.db, id);
    if (!container) throw notFound('container.notFound');
    await this.remove(container, await this.backend());
  }

  /**
   * An admin's test container for a challenge (team `admin`, the test flag); replaces a previous one.
   * The previous one is read and replaced under the challenge's row lock, so of concurrent starts each
   * replaces the one committed before it and none is left running unreferenced; it is stopped after
   * the commit.
   */
  async startTest(gameId: number, challengeId: number, user: SessionUser): Promise<ContainerInfoModel> {
    const backend = await this.backend();
    const { db } = this.deps;
    const policy = (await this.deps.settings.get()).containerPolicy;
    const at = new Date(this.now());
    const { challenge, row, previous } = await db.transaction(async (tx) => {
      const challenge = await lockChallenge(tx, gameId, challengeId);
      if (!challenge) throw notFound('edit.challenges.notFound');
      this.requireRunnable(challenge);
      const previous = await repo.findTestContainer(tx, challenge.id);
      const row = await this.insertPending(tx, challenge, at, policy.defaultLifetime, null);
      await setTestContainer(tx, challenge.id, row.id);
      return { challenge, row, previous };
    });
    if (previous) {
      await this.remove(previous, backend).catch((error: unknown) => {
        // An engine failure is logged by remove and keeps the row: the sweeper retries when it expires.
        if (!(error instanceof HttpError)) throw error;
      });
    }
    const env: Record<string, string> = { GZCTF_TEAM_ID: 'admin' };
    if (challenge.type === 'DynamicContainer') env.GZCTF_FLAG = generateTestFlag(challenge.flagTemplate);
    const running = await this.start(backend, row, challenge, env, {
      team: 'admin',
      user: user.id,
      challenge: String(challenge.id),
    });
    return toContainerInfo(running);
  }

  async stopTest(gameId: number, challengeId: number): Promise<void> {
    const challenge = await findChallenge(this.deps.db, gameId, challengeId);
    if (!challenge) throw notFound('edit.challenges.notFound');
    const container = await repo.findTestContainer(this.deps.db, challenge.id);
    if (container) await this.remove(container, await this.backend());
  }

  /**
   * Stops a container and deletes its row; true when this call deleted the row (concurrent
   * destroyers of one container agree that way). An engine failure keeps the row and answers 400.
   */
  async remove(container: ContainerRow, backend: ContainerBackend): Promise<boolean> {
    if (container.containerId) {
      try {
        await backend.destroy(container.containerId);
      } catch (error) {
        this.deps.log.warn({ err: error, container: container.id }, 'container destroy failed');
        throw badRequest('container.destroyFailed');
      }
    }
    const [deleted] = await repo.deleteContainers(this.deps.db, [container.id]);
    if (deleted?.containerId && deleted.containerId !== container.containerId) {
      // It finished starting after `container` was read: its engine container must not outlive the row.
      await backend
        .destroy(deleted.containerId)
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, container: container.id }, 'container destroy failed'),
        );
    }
    this.events.emit('removed', container.id);
    return deleted !== undefined;
  }

  /**
   * Stops engine containers whose rows are already gone (deleted with their game, challenge or
   * team), and announces those rows' removal so the proxy drops their cached targets. The deletion
   * passes engine ids only; the rows are found by the engine's row labels.
   */
  async stopOrphans(containerIds: string[]): Promise<void> {
    const backend = this.deps.backend;
    const ids = new Set(containerIds.filter(Boolean));
    if (!backend || ids.size === 0) return;
    const rowOf = new Map<string, string>();
    try {
      for (const entry of await backend.list()) {
        if (entry.rowId && ids.has(entry.containerId)) rowOf.set(entry.containerId, entry.rowId);
      }
    } catch (error) {
      // Still stopped below; their cached targets then expire on their own.
      this.deps.log.warn({ err: error }, 'rows of deleted containers not found');
    }
    for (const id of ids) {
      await backend
        .destroy(id)
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'container destroy failed'));
      const rowId = rowOf.get(id);
      if (rowId) this.events.emit('removed', rowId);
    }
  }

  /** The backend, prepared; 400 with a clear title when the platform runs none. */
  async backend(): Promise<ContainerBackend> {
    const backend = this.deps.backend;
    if (!backend) throw badRequest('container.unavailable');
    try {
      await this.deps.ready();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'the container engine is not ready');
      throw badRequest('container.engineUnavailable');
    }
    return backend;
  }

  /** Starts the engine's container for a Pending row, through the start gate; the row is gone on failure. */
  private async start(
    backend: ContainerBackend,
    row: ContainerRow,
    challenge: ChallengeRow,
    env: Record<string, string>,
    owner: ContainerSpec['owner'],
  ): Promise<ContainerRow> {
    const { db, env: settings } = this.deps;
    const spec: ContainerSpec = {
      rowId: row.id,
      image: challenge.containerImage!,
      port: challenge.containerExposePort,
      memoryMb: challenge.memoryLimit,
      cpuCount: challenge.cpuCount,
      storageMb: challenge.storageLimit,
      pidsLimit: challenge.pidsLimit,
      env,
      owner,
      publish:
        settings.portMapping === 'Default' ||
        (backend.kind === 'Docker' && settings.containers.docker.publishProxyPorts),
    };
    let started: StartedContainer | undefined;
    this.starts.add(row.id);
    try {
      started = await this.deps.gate.run(async () => {
        // Its turn may come long after the request: a row destroyed, evicted or swept meanwhile
        // costs no engine start. Renewing it also restarts its stale clock for the engine call.
        const [pending] = await repo.renewPending(db, [row.id], new Date(this.now()));
        return pending ? backend.create(spec) : undefined;
      });
    } catch (error) {
      await repo.deleteContainers(db, [row.id]);
      this.events.emit('removed', row.id);
      this.deps.log.warn({ err: error, image: spec.image }, 'container start failed');
      throw error instanceof ContainerEngineError ? badRequest('container.createFailed') : error;
    } finally {
      this.starts.delete(row.id);
    }
    // Gone while it waited for its turn (whoever removed the row announced it).
    if (!started) throw badRequest('container.createFailed');
    const startedAt = this.now();
    const lifetime = row.expectStopAt.getTime() - row.startedAt.getTime();
    const running = await repo.markRunning(db, row.id, {
      ...started,
      startedAt: new Date(startedAt),
      expectStopAt: new Date(startedAt + lifetime),
    });
    if (!running) {
      // Destroyed (or evicted) while it was starting: the container must not outlive its row.
      await backend.destroy(started.containerId).catch(() => undefined);
      throw badRequest('container.createFailed');
    }
    return running;
  }

  /** The row of a container about to start: it counts (and holds the team's limit) from now on. */
  private insertPending(
    tx: Db,
    challenge: ChallengeRow,
    at: Date,
    lifetimeMinutes: number,
    gameInstanceId: number | null,
  ): Promise<ContainerRow> {
    return repo.insertContainer(tx, {
      image: challenge.containerImage!,
      containerId: '',
      status: 'Pending',
      startedAt: at,
      expectStopAt: new Date(at.getTime() + lifetimeMinutes * MINUTE),
      isProxy: this.isProxy,
      gameInstanceId,
    });
  }

  /** Removes an evicted container whose row is already gone. */
  private async stopEngineContainer(container: ContainerRow, backend: ContainerBackend): Promise<void> {
    if (container.containerId) {
      await backend
        .destroy(container.containerId)
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'evicted container destroy failed'));
    }
    this.events.emit('removed', container.id);
  }

  private async containerChallenge(gameId: number, challengeId: number): Promise<ChallengeRow> {
    const challenge = await findEnabledChallenge(this.deps.db, gameId, challengeId);
    if (!challenge) throw notFound('game.challengeNotFound');
    this.requireRunnable(challenge);
    return challenge;
  }

  private requireRunnable(challenge: ChallengeRow): void {
    if (!isContainerType(challenge.type)) throw badRequest('container.notContainerChallenge');
    if (!challenge.containerImage || !challenge.containerExposePort) throw badRequest('container.noImage');
  }

  private throttle(last: Date | null): void {
    if (last && this.now() - last.getTime() < OPERATION_INTERVAL_MS) {
      throw new HttpError(429, 'container.tooFrequent', { seconds: OPERATION_INTERVAL_MS / 1000 });
    }
  }

  private async recordEvent(
    actor: { user: SessionUser; teamId: number; teamName: string; gameId: number },
    type: EventType,
    challengeId: number,
    title: string,
  ): Promise<void> {
    const row = await insertEvent(this.deps.db, {
      gameId: actor.gameId,
      type,
      values: [String(challengeId), title],
      userId: actor.user.id,
      teamId: actor.teamId,
    });
    bus.emit('gameEvent', {
      gameId: actor.gameId,
      event: { type, values: row.values, time: row.at.getTime(), user: actor.user.userName, team: actor.teamName },
    });
  }
}
