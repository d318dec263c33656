import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { EventType } from '../../db/schema/enums';
import { gameEvents } from '../../db/schema/notices';
import { teams } from '../../db/schema/teams';
import { users } from '../../db/schema/users';
import type { PageRequest as ListPage } from '../../lib/paging';

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
          ilike(teams.name, pattern),
          ilike(users.userName, pattern),
          ilike(sql`array_to_string(${gameEvents.values}, ' ')`, pattern),
        )
      : undefined,
  );
}

export async function listEvents(db: Db, gameId: number, page: ListPage, filter: EventFilter) {
  const query = db
    .select({ event: gameEvents, user: users.userName, team: teams.name })
    .from(gameEvents)
    .leftJoin(users, eq(users.id, gameEvents.userId))
    .leftJoin(teams, eq(teams.id, gameEvents.teamId))
    .where(eventConditions(gameId, filter))
    .orderBy(desc(gameEvents.at), desc(gameEvents.id));
  return page.count > 0 ? query.limit(page.count).offset(page.skip) : query.offset(page.skip);
}

export async function countEvents(db: Db, gameId: number, filter: EventFilter): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(gameEvents)
    .leftJoin(users, eq(users.id, gameEvents.userId))
    .leftJoin(teams, eq(teams.id, gameEvents.teamId))
    .where(eventConditions(gameId, filter));
  return row?.value ?? 0;
}
