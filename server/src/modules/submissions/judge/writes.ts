import { createHash } from 'node:crypto';
import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { queryNamed, type Db } from '../../../db/client';
import { cheatInfo, solves, submissions } from '../../../db/schema/submissions';
import type { AnswerResult, NoticeType } from '../../../db/schema/enums';
import { addJudgedCounts } from '../../challenges';
import { bloodNoticeRows, insertBloodNotices, insertJudgeEvents, judgeEventRows } from '../../notices';
import type { Solve } from './decide';

/** Everything one judgement writes, in the order it is announced. */
export interface JudgementWrites {
  solves: Solve[];
  verdicts: Array<{ id: number; status: AnswerResult }>;
  /** Per solved challenge: the solves to add to its `acceptedCount`. */
  counters: Array<{ id: number; solved: number }>;
  cheats: Array<{ submissionId: number; gameId: number; submitParticipationId: number; sourceParticipationId: number }>;
  notices: Array<{ gameId: number; type: NoticeType; values: string[] }>;
  events: Array<{ gameId: number; type: string; values: string[]; userId: string | null; teamId: number }>;
}

/** A blood notice as written: its identity and publication time (Unix ms). */
export interface WrittenNotice {
  id: number;
  type: NoticeType;
  values: string[];
  time: number;
}

/** Turns the statement into its text and parameters (the text names tables only, no columns). */
const dialect = new PgDialect();
/** The statement's placeholders, one per member of its WITH: each is filled with JSON per batch. */
type Rows = 'solves' | 'verdicts' | 'counters' | 'cheats' | 'notices' | 'events';
const rows = (name: Rows) => sql.placeholder(name);

/**
 * Every write of a judgement in one statement (one round trip): the solves, the verdicts, the
 * counters, the cheat records, the blood notices and the events. It returns how many solves landed,
 * the events' time and the notices in their order. The writes to other modules' tables (counters,
 * notices, events) are statements those modules build for this WITH, so it stays one round trip.
 * Every value travels as one JSON parameter per member, so the text is the same for every batch:
 * it is built once, here, and runs as a named statement (`queryNamed`), so each connection parses
 * and plans it once, and the server neither builds it (drizzle) nor hashes it per batch. The name
 * carries a hash of the text, so a text that ever differed would be a statement of its own.
 */
const WRITE = dialect.sqlToQuery(sql`
    with new_solves as (
      insert into ${solves} (participation_id, challenge_id, submission_id, solved_at, type)
      select d.participation_id, d.challenge_id, d.submission_id, d.solved_at, d.type::submission_type
      from json_to_recordset(${rows('solves')}::json)
        as d(participation_id int, challenge_id int, submission_id int, solved_at timestamptz, type text)
      on conflict do nothing
      returning submission_id
    ), verdicts as (
      update ${submissions} s set status = d.status::answer_result
      from json_to_recordset(${rows('verdicts')}::json) as d(id int, status text)
      where s.id = d.id
    ), counters as (
      ${addJudgedCounts(rows('counters'))}
    ), cheats as (
      insert into ${cheatInfo} (submission_id, game_id, submit_participation_id, source_participation_id)
      select * from json_to_recordset(${rows('cheats')}::json)
        as d(submission_id int, game_id int, submit_participation_id int, source_participation_id int)
    ), notices as (
      ${insertBloodNotices(rows('notices'))}
    ), events as (
      ${insertJudgeEvents(rows('events'))}
    )
    select (select count(*) from new_solves)::int as solved,
      (select floor(extract(epoch from min(at)) * 1000)::float8 from events) as at,
      (select coalesce(json_agg(json_build_object(
          'id', id, 'type', type, 'values', values, 'time', floor(extract(epoch from published_at) * 1000)
        ) order by id), '[]'::json) from notices) as notices`);
const WRITE_NAME = `judge_write_${createHash('sha1').update(WRITE.sql).digest('hex').slice(0, 12)}`;

/** Writes a judgement with the statement above: one round trip. */
export async function writeJudgement(
  tx: Db,
  writes: JudgementWrites,
): Promise<{ solved: number; eventAt: number | null; notices: WrittenNotice[] }> {
  const values: Record<Rows, string> = {
    solves: JSON.stringify(
      writes.solves.map((solve) => ({
        participation_id: solve.participationId,
        challenge_id: solve.challengeId,
        submission_id: solve.submissionId,
        solved_at: new Date(solve.solvedAt).toISOString(),
        type: solve.type,
      })),
    ),
    verdicts: JSON.stringify(writes.verdicts),
    counters: JSON.stringify(writes.counters),
    cheats: JSON.stringify(
      writes.cheats.map((cheat) => ({
        submission_id: cheat.submissionId,
        game_id: cheat.gameId,
        submit_participation_id: cheat.submitParticipationId,
        source_participation_id: cheat.sourceParticipationId,
      })),
    ),
    notices: bloodNoticeRows(writes.notices),
    events: judgeEventRows(writes.events),
  };
  const [row] = await queryNamed<{ solved: number; at: number | null; notices: WrittenNotice[] }>(
    tx,
    WRITE_NAME,
    WRITE.sql,
    fillPlaceholders(WRITE.params, values),
  );
  // Identities follow the insert's order, which is `writes.notices`' order.
  if (!row) throw new Error('the judgement statement returned no row');
  return {
    solved: Number(row.solved),
    eventAt: row.at !== null ? Number(row.at) : null,
    notices: row.notices.map((notice) => ({ ...notice, time: Number(notice.time) })),
  };
}
