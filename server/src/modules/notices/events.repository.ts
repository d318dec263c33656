import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { EventType } from '../../db/schema/enums';
import { gameEvents } from '../../db/schema/notices';
import type { PageRequest as ListPage } from '../../lib/paging';
import { userRows } from '../accounts/read-models';
import { teamRows } from '../teams/read-models';

const team = teamRows();
const user = userRows();

/** The monitor's event list of a game: filtered, paged, counted. */

export interface EventFilter {
  hideContainer: boolean;
  type?: EventType | undefined;
  /** An ILIKE pattern (`searchPattern`) matched against team, user and the event's values. */
  pattern?: string | undefined;
}

function eventConditions(gameId: number, filter: EventFilter) {
  const { pattern } = filter;
  return and(
    eq(gameEvents.gameId, gameId),
    filter.hideContainer ? inArray(gameEvents.type, ['Normal', 'FlagSubmit', 'CheatDetected']) : undefined,
    filter.type ? eq(gameEvents.type, filter.type) : undefined,
    pattern
      ? or(
          ilike(team.name, pattern),
          ilike(user.userName, pattern),
          ilike(sql`array_to_string(${gameEvents.values}, ' ')`, pattern),
        )
      : undefined,
  );
}

export async function listEvents(db: Db, gameId: number, page: ListPage, filter: EventFilter) {
  const query = db
    .select({ event: gameEvents, user: user.userName, team: team.name })
    .from(gameEvents)
    .leftJoin(user, eq(user.id, gameEvents.userId))
    .leftJoin(team, eq(team.id, gameEvents.teamId))
    .where(eventConditions(gameId, filter))
    .orderBy(desc(gameEvents.at), desc(gameEvents.id));
  return page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip);
}

export async function countEvents(db: Db, gameId: number, filter: EventFilter): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(gameEvents)
    .leftJoin(user, eq(user.id, gameEvents.userId))
    .leftJoin(team, eq(team.id, gameEvents.teamId))
    .where(eventConditions(gameId, filter));
  return row?.value ?? 0;
}
