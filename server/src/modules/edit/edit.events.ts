import { EventEmitter } from 'node:events';
import type { components } from '../../contract/api.generated';

/**
 * What game authoring tells the rest of the server, after the change is committed. The realtime hubs,
 * the scoreboard cache and the container manager subscribe here.
 *
 * - `noticePublished`: a notice was created or edited (Normal ones by admins, NewChallenge/NewHint as
 *   side effects of challenge edits); the user hub sends it to the game's players.
 * - `scoreboardChanged`: anything the scoreboard is computed from changed (challenges, scores,
 *   accepted counts, participation status or division); drop the cached scoreboard of that game.
 * - `containersRemoved`: rows of running containers were deleted with their game or challenge; stop
 *   the real containers (`containerId` is the Docker / Kubernetes id).
 *
 * One emitter per process: with several instances, the hub layer relays what it hears over Redis.
 */
export interface EditEvents {
  noticePublished: [{ gameId: number; notice: components['schemas']['GameNotice'] }];
  scoreboardChanged: [{ gameId: number }];
  containersRemoved: [{ containerIds: string[] }];
}

export const editEvents = new EventEmitter<EditEvents>();

/**
 * Emits after a commit. A listener that throws must not turn a committed edit into a failed request,
 * so its error becomes a process warning instead.
 */
export function publish<K extends keyof EditEvents>(event: K, ...args: EditEvents[K]): void {
  try {
    (editEvents.emit as (name: K, ...payload: EditEvents[K]) => boolean)(event, ...args);
  } catch (error) {
    process.emitWarning(error instanceof Error ? error : String(error), { code: 'EDIT_EVENT_LISTENER' });
  }
}
