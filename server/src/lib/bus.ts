import type { components } from '../contract/api.generated';

type Schemas = components['schemas'];

/**
 * What the server's domains tell the rest of it, once the change is committed. Payloads are plain
 * data, so a subscriber never needs to import the module that emitted them.
 *
 * - `noticePublished`: a notice for a game's players: an admin's Normal notice, NewChallenge/NewHint
 *   from a challenge edit, or a blood from the judge. The user hub sends it on.
 * - `noticeRemoved`: an admin deleted a Normal notice (the players' cached lists drop it).
 * - `gameEvent`: a game event for the monitors (a flag submitted, a container started or stopped…).
 * - `submissionJudged`: a verdict for the monitors.
 * - `scoreboardChanged`: something a game's board is computed from changed. `cause: 'edit'` (the
 *   game, its challenges or freeze, a participation's status or division) rebuilds the board at
 *   once; `'solve'` (the judge) is paced, so a stream of solves costs one rebuild per pause.
 * - `containersRemoved`: rows of running containers went with their game or challenge; the real
 *   containers (`containerIds`: Docker / Kubernetes ids) are still to be stopped.
 * - `challengesRemoved`: challenges were deleted (alone or with their game); what they kept outside
 *   the database (their traffic captures) is still to be removed.
 *
 * The bus is in-process only, and cross-instance delivery belongs to the subscribers that need it:
 * the hubs relay their socket messages over Redis, batched per turn of the event loop (the judge
 * emits per submission, and a Redis round trip each would sit on the hot path); the scoreboard is
 * shared through the cache, its build lock announcing new boards to the other instances; containers
 * run on an engine every instance shares, so the instance that removed the rows stops them once.
 * Fanning the bus itself out would make every instance rebuild the same board and stop the same
 * containers.
 */
export interface AppEvents {
  noticePublished: { gameId: number; notice: Schemas['GameNotice'] };
  noticeRemoved: { gameId: number; id: number };
  gameEvent: { gameId: number; event: Schemas['GameEvent'] };
  submissionJudged: { gameId: number; submission: Schemas['Submission'] };
  scoreboardChanged: { gameId: number; cause: 'edit' | 'solve' };
  containersRemoved: { containerIds: string[] };
  challengesRemoved: { challengeIds: number[] };
}

type Listener<T> = (payload: T) => void;

class Bus<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
  }

  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    this.listeners.get(event)?.delete(listener);
  }

  /**
   * Called after a commit: a listener that throws must not turn a committed change into a failed
   * request or a stuck judge queue, nor keep the other listeners from hearing it, so its error
   * becomes a process warning instead.
   */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    // A copy: a listener may unsubscribe (or subscribe another) while it runs.
    for (const listener of [...set] as Listener<Events[K]>[]) {
      try {
        listener(payload);
      } catch (error) {
        process.emitWarning(error instanceof Error ? error : String(error), { code: 'APP_EVENT_LISTENER' });
      }
    }
  }
}

export const bus = new Bus<AppEvents>();
