import type { Db } from '../../db/client';
import type { ContainerBackend } from './backend';
import * as repo from './instances.repository';
import type { InstanceService } from './instances.service';

/** A start that has not finished in this long never will (the platform stopped meanwhile). */
export const STALE_START_MS = 10 * 60_000;

export interface MaintenanceDeps {
  db: Db;
  backend: ContainerBackend;
  service: InstanceService;
  log: { warn(object: object, message: string): void; info(message: string): void };
  now?: () => number;
}

/**
 * Destroys containers past their expected stop (players' and test ones), and forgets starts that
 * never finished. Several platform instances may sweep at once: destroying twice is harmless and
 * only one of them deletes each row.
 */
export async function sweepExpired(deps: MaintenanceDeps): Promise<number> {
  const now = new Date((deps.now ?? Date.now)());
  let removed = 0;
  for (const container of await repo.listExpired(deps.db, now, 200)) {
    try {
      if (await deps.service.remove(container, deps.backend)) removed += 1;
    } catch (error) {
      deps.log.warn({ err: error, container: container.id }, 'expired container not destroyed; retrying later');
    }
  }
  const stale = await repo.listStalePending(deps.db, new Date(now.getTime() - STALE_START_MS));
  for (const row of await repo.deleteContainers(
    deps.db,
    stale.map((row) => row.id),
  )) {
    deps.service.events.emit('removed', row.id);
  }
  return removed;
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
