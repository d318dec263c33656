import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { NoticeType } from '../../db/schema/enums';
import { gameEvents, gameNotices } from '../../db/schema/notices';

// Data-modifying members of the WITH of the judge's one write statement (submissions/judge/writes.ts):
// one round trip writes a whole judgement, so these are statements to embed, not functions to await.

/** The blood notices as `insertBloodNotices` reads them: JSON, in the given order. */
export const bloodNoticeRows = (notices: Array<{ gameId: number; type: NoticeType; values: string[] }>): string =>
  JSON.stringify(notices.map((notice, n) => ({ n, game_id: notice.gameId, type: notice.type, values: notice.values })));

/**
 * Inserts the blood notices of `rows` (the parameter holding `bloodNoticeRows`) in their order;
 * returns `id, type, values, published_at` of each (identities follow that order).
 */
export function insertBloodNotices(rows: SQLWrapper): SQL {
  return sql`insert into ${gameNotices} (game_id, type, values)
      select d.game_id, d.type::notice_type, d.values
      from json_to_recordset(${rows}::json) as d(n int, game_id int, type text, values text[])
      order by d.n
      returning id, type, values, published_at`;
}

/** The judgement's events as `insertJudgeEvents` reads them: JSON, in the given order. */
export const judgeEventRows = (
  events: Array<{ gameId: number; type: string; values: string[]; userId: string | null; teamId: number }>,
): string =>
  JSON.stringify(
    events.map((event, n) => ({
      n,
      game_id: event.gameId,
      type: event.type,
      values: event.values,
      user_id: event.userId,
      team_id: event.teamId,
    })),
  );

/** Inserts the events of `rows` (the parameter holding `judgeEventRows`) in their order; returns `at` of each. */
export function insertJudgeEvents(rows: SQLWrapper): SQL {
  return sql`insert into ${gameEvents} (game_id, type, values, user_id, team_id)
      select e.game_id, e.type::event_type, e.values, e.user_id, e.team_id
      from json_to_recordset(${rows}::json)
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
