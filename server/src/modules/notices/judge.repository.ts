import { sql, type SQL } from 'drizzle-orm';
import type { NoticeType } from '../../db/schema/enums';
import { gameEvents, gameNotices } from '../../db/schema/notices';

// Data-modifying members of the WITH of the judge's one write statement (submissions/judge/writes.ts):
// one round trip writes a whole judgement, so these are statements to embed, not functions to await.

/**
 * Inserts the blood notices in the given order; returns `id, type, values, published_at` of each
 * (identities follow the given order).
 */
export function insertBloodNotices(notices: Array<{ gameId: number; type: NoticeType; values: string[] }>): SQL {
  const rows = notices.map((notice, n) => ({ n, game_id: notice.gameId, type: notice.type, values: notice.values }));
  return sql`insert into ${gameNotices} (game_id, type, values)
      select d.game_id, d.type::notice_type, d.values
      from json_to_recordset(${JSON.stringify(rows)}::json) as d(n int, game_id int, type text, values text[])
      order by d.n
      returning id, type, values, published_at`;
}

/** Inserts the judgement's events in the given order; returns `at` of each. */
export function insertJudgeEvents(
  events: Array<{ gameId: number; type: string; values: string[]; userId: string | null; teamId: number }>,
): SQL {
  const rows = events.map((event, n) => ({
    n,
    game_id: event.gameId,
    type: event.type,
    values: event.values,
    user_id: event.userId,
    team_id: event.teamId,
  }));
  return sql`insert into ${gameEvents} (game_id, type, values, user_id, team_id)
      select e.game_id, e.type::event_type, e.values, e.user_id, e.team_id
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as e(n int, game_id int, type text, values text[], user_id uuid, team_id int)
      order by e.n
      returning at`;
}

/**
 * The text of the intake's event insert (submissions/intake.repository.ts), embedded in its fixed
 * statement: the `FlagSubmit` events of the rows of `source` (a CTE with `n, game_id, values,
 * user_id, team_id`), in `n` order.
 */
export const insertIntakeEventsFrom = (
  source: string,
) => `insert into game_events (game_id, type, values, user_id, team_id)
      select game_id, 'FlagSubmit'::event_type, values, user_id, team_id from ${source} order by n`;
