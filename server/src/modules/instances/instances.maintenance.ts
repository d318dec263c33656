import type { Db } from '../../db/client';
import type { ContainerBackend } from './backend';
import * as repo from './instances.repository';
import type { InstanceService } from './instances.service';

/**
 * A Pending row not renewed for this long belongs to a start whose platform instance went away:
 * starts in progress (queued in the gate or in the engine call) renew theirs every RENEW_START_MS.
 */
export const STALE_START_MS = 10 * 60_000;
export const RENEW_START_MS = 60_000;

export interface MaintenanceDeps {
  db: Db;
  backend: ContainerBackend;
  service: InstanceService;
  log: { warn(object: object, message: string): void; info(message: string): void };
  now?: () => number;
}

/**
 * Destroys containers past their expected stop (players' and test ones), and forgets starts that
 * stopped renewing their rows. Each row is claimed (status Destroyed) before its container is
 * destroyed, so an extension that commits first keeps its container and one that comes later is
 * refused instead of silently undone. Several platform instances may sweep at once: destroying
 * twice is harmless and only one of them deletes each row.
 */
export async function sweepExpired(deps: MaintenanceDeps): Promise<number> {
  const now = new Date((deps.now ?? Date.now)());
  let removed = 0;
  for (const listed of await repo.listExpired(deps.db, now, 200)) {
    try {
      const container = await repo.claimExpired(deps.db, listed.id, now);
      if (container && (await deps.service.remove(container, deps.backend))) removed += 1;
    } catch (error) {
      deps.log.warn({ err: error, container: listed.id }, 'expired container not destroyed; retrying later');
    }
  }
  for (const row of await repo.deleteStalePending(deps.db, new Date(now.getTime() - STALE_START_MS))) {
    deps.service.events.emit('removed', row.id);
  }
  return removed;
}

/**
 * The Pending rows this process is starting, renewed together (one statement) while any is in
 * progress, so the stale sweep never takes a start that is only slow: a long queue at a game's
 * opening, a large image's first pull.
 */
export class StartsInProgress {
  private readonly rows = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      db: Db;
      now: () => number;
      log: { warn(object: object, message: string): void };
      renewMs?: number;
    },
  ) {}

  add(rowId: string): void {
    this.rows.add(rowId);
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), this.deps.renewMs ?? RENEW_START_MS);
    // Nothing to renew once the process is stopping.
    this.timer.unref();
  }

  delete(rowId: string): void {
    this.rows.delete(rowId);
    if (this.rows.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async renew(): Promise<void> {
    try {
      await repo.renewPending(this.deps.db, [...this.rows], new Date(this.deps.now()));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'starting containers not renewed');
    }
  }
}

export interface ReconcileResult {
  /** Rows whose container was gone from the engine. */
  closed: number;
  /** Engine containers of this platform with no row (or stopped), removed. */
  removed: number;
}

/**
 * Makes the database and the engine agree, at start and now and then: rows of running containers the
 * engine no longer has are closed, and containers labelled with this platform's id but without a row
 * (or no longer running, unless still starting) are removed. Another platform's containers carry another id and are never
 * listed. Rows are read before and after listing the engine, so a container started meanwhile by
 * another instance of this platform is neither closed nor removed.
 */
export async function reconcile(deps: MaintenanceDeps): Promise<ReconcileResult> {
  const before = await repo.listAllContainers(deps.db);
  const listed = await deps.backend.list();
  const after = new Map((await repo.listAllContainers(deps.db)).map((row) => [row.id, row.status]));
  const running = new Set(listed.filter((entry) => entry.running).map((entry) => entry.containerId));

  const gone = before.filter((row) => row.status === 'Running' && !running.has(row.containerId));
  for (const row of await repo.deleteContainers(
    deps.db,
    gone.map((row) => row.id),
  )) {
    deps.service.events.emit('removed', row.id);
  }

  let removed = 0;
  for (const entry of listed) {
    const status = entry.rowId === null ? undefined : after.get(entry.rowId);
    // A Pending row is a start in flight: the engine has the container but does not run it yet (a
    // pod pulling its image, a Docker container between create and start). Its start decides; a
    // start that never ends is swept with its row, and then its container goes here.
    if (status === 'Pending' || (status !== undefined && entry.running)) continue;
    try {
      await deps.backend.destroy(entry.containerId);
      removed += 1;
    } catch (error) {
      deps.log.warn({ err: error, container: entry.containerId }, 'orphan container not removed');
    }
  }
  if (gone.length || removed) {
    deps.log.info(`containers reconciled: ${gone.length} rows closed, ${removed} orphan containers removed`);
  }
  return { closed: gone.length, removed };
}
