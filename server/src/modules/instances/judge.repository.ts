import { sql, type SQL } from 'drizzle-orm';
import { gameInstances } from '../../db/schema/instances';

/**
 * The judge's solved marks, one data-modifying member of the WITH of its one write statement
 * (submissions/judge/writes.ts): flags the instances of this judgement's solves as solved.
 */
export function markInstancesSolved(instanceIds: number[]): SQL {
  return sql`update ${gameInstances} set is_solved = true
      where id in (select value::int from json_array_elements_text(${JSON.stringify(instanceIds)}::json))`;
}
