import type { components } from '../../contract/api.generated';
import type { Db } from '../../db/client';
import type { EventType } from '../../db/schema/enums';
import { searchPattern } from '../../lib/paging';
import { gameOrNotFound, requireStarted } from '../games';
import { countEvents, listEvents } from './events.repository';

type GameEventModel = components['schemas']['GameEvent'];

/** A page of the game's events (newest first) and the number of all that match (`X-Total-Count`). */
export async function eventList(
  db: Db,
  gameId: number,
  query: { count?: number; skip?: number; hideContainer?: boolean; type?: EventType; search?: string },
): Promise<{ rows: GameEventModel[]; total: number }> {
  requireStarted(await gameOrNotFound(db, gameId));
  const filter = {
    hideContainer: query.hideContainer ?? false,
    type: query.type,
    pattern: searchPattern(query.search),
  };
  const [rows, total] = await Promise.all([
    listEvents(db, gameId, { count: query.count ?? 100, skip: query.skip ?? 0 }, filter),
    countEvents(db, gameId, filter),
  ]);
  return {
    total,
    rows: rows.map((row) => ({
      type: row.event.type,
      values: row.event.values,
      time: row.event.at.getTime(),
      user: row.user ?? '',
      team: row.team ?? '',
    })),
  };
}
