import { EventEmitter } from 'node:events';
import type { components } from '../../contract/api.generated';

type Schemas = components['schemas'];

/**
 * What playing tells the realtime hubs, after the change is committed: notices for players
 * (`/hub/user`), events and judged submissions for monitors (`/hub/monitor`). Game authoring's own
 * notices arrive through `edit.events.ts`; the hubs plugin listens to both.
 */
export interface GameBusEvents {
  notice: [{ gameId: number; notice: Schemas['GameNotice'] }];
  event: [{ gameId: number; event: Schemas['GameEvent'] }];
  submission: [{ gameId: number; submission: Schemas['Submission'] }];
  scoreboardChanged: [{ gameId: number }];
}

export const gameBus = new EventEmitter<GameBusEvents>();

/** Emits after commit; a throwing listener becomes a warning, never a failed request or a stuck queue. */
export function emitGame<K extends keyof GameBusEvents>(event: K, ...args: GameBusEvents[K]): void {
  try {
    (gameBus.emit as (name: K, ...payload: GameBusEvents[K]) => boolean)(event, ...args);
  } catch (error) {
    process.emitWarning(error instanceof Error ? error : String(error), { code: 'GAME_EVENT_LISTENER' });
  }
}
