import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { queryNamed, type DatabaseHandle } from '../../../server/src/db/client';
import { STORE_SUBMISSIONS } from '../../../server/src/modules/submissions/intake.repository';
import { READ_SOLVES } from '../../../server/src/modules/submissions/judge/reads';
import { engines } from '../helpers/database';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Subplan Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The plan's nodes, depth first, of `text` run with `values`. */
async function planOf(database: DatabaseHandle, name: string, text: string, values: unknown[]): Promise<PlanNode[]> {
  const [row] = await queryNamed<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> | string }>(
    database.db,
    name,
    `explain (format json) ${text}`,
    values,
  );
  // node-postgres parses the json column; PGlite may hand over its text.
  const plan = row!['QUERY PLAN'];
  const parsed = typeof plan === 'string' ? (JSON.parse(plan) as Array<{ Plan: PlanNode }>) : plan;
  return nodesOf(parsed[0]!.Plan);
}

// Statements run for every flag sent or every judged batch: their cost must not grow with the event.
for (const engine of engines()) {
  describe(`the submissions' hot statements (${engine.name})`, () => {
    let database: DatabaseHandle;
    before(async () => {
      database = await engine.open();
    });
    after(async () => database.close());

    // Whatever the planner guesses of a batch's size, each request must be a few index probes: a
    // hash join or a hashed subplan reads a whole table (every team, every user's participation,
    // every flag) per statement.
    test('the intake reads each request by key: no hash join, no hashed subplan', async () => {
      const requests = JSON.stringify([
        { n: 0, game_id: 1, challenge_id: 1, user_id: randomUUID(), answer: 'flag{plan}', valid: true },
      ]);
      const nodes = await planOf(database, 'explain_intake', STORE_SUBMISSIONS, [requests, new Date().toISOString()]);
      assert.ok(
        nodes.some((node) => node['Relation Name'] === 'user_participations'),
        'the plan reads participations',
      );
      assert.deepEqual(
        nodes.filter((node) => node['Node Type'].startsWith('Hash') || /hashed/i.test(node['Subplan Name'] ?? '')),
        [],
      );
    });

    // A challenge's latest solve is the end of its (challenge, time) index, not an aggregate over
    // every solve of the challenge, which the judge had read again for each batch.
    test("the judge's read of a challenge's latest solve aggregates nothing", async () => {
      const nodes = await planOf(database, 'explain_read_solves', READ_SOLVES, [[1], [1, 2]]);
      assert.ok(
        nodes.some((node) => node['Relation Name'] === 'solves'),
        'the plan reads solves',
      );
      assert.deepEqual(
        nodes.filter((node) => node['Node Type'].includes('Aggregate')),
        [],
      );
    });
  });
}
