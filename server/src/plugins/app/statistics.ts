import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';

/**
 * How often the tables' sizes are compared with their statistics: one catalogue query, so cheap
 * enough to run often, and often enough that a table filling up during the first minutes of a game
 * is re-planned within seconds (autovacuum's own default is a look every minute).
 */
const CHECK_MS = 5_000;
/**
 * A table is analyzed again once it has GROWTH times the pages it had at its last analysis, and at
 * least PAGE_SLACK more. Autovacuum's trigger (10 % of the rows changed, plus 50) would re-analyze
 * the submissions every few seconds during a game (at the bench's ~800 submissions a second, 10 %
 * of 30,000 rows is 4 s); a fifth more pages is about four analyses per doubling, and the slack
 * keeps tables of a page or two from being analyzed at all.
 */
const GROWTH = 1.2;
const PAGE_SLACK = 8;

/**
 * Keeps the planner's statistics in step with the tables where nothing else does: PGlite has no
 * autovacuum, and a PostgreSQL server may run with it off (these CI machines do). Each connection
 * caches plans made from those statistics, the foreign-key checks' among them; made while a table
 * was nearly empty they scan it whole, and stay so as it grows (a solve's check of its submission
 * was seen taking 1.6 ms, reading 30,000 submissions, which had halved some of the game bench's
 * solving rounds). A table that grew by a fifth (and 8 pages) since it was last analyzed is analyzed
 * again, which also makes every connection re-plan.
 */
export class TableStatistics {
  constructor(private readonly db: Db) {}

  /** Analyzes the tables that outgrew their statistics; returns their names. */
  async refresh(): Promise<string[]> {
    const grown = await this.db.execute<{ name: string }>(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and pg_relation_size(c.oid) / current_setting('block_size')::int
          > greatest(c.relpages * ${GROWTH}::float8, c.relpages + ${PAGE_SLACK}::int)
      order by c.relname`);
    const names = grown.rows.map((row) => row.name);
    const list = sql.join(
      names.map((name) => sql.identifier(name)),
      sql`, `,
    );
    if (names.length) await this.db.execute(sql`analyze ${list}`);
    return names;
  }
}

/** Whether the database keeps its own statistics (PostgreSQL with autovacuum on). */
async function autovacuumRuns(app: FastifyInstance): Promise<boolean> {
  if (app.database.kind === 'pglite') return false;
  const [row] = (await app.db.execute<{ on: boolean }>(sql`select current_setting('autovacuum') = 'on' as on`)).rows;
  return row?.on === true;
}

export default fp(
  async function statistics(app: FastifyInstance) {
    const tables = new TableStatistics(app.db);
    app.addHook('onReady', async () => {
      if (await autovacuumRuns(app)) return;
      // One instance analyzes for all (they share the database); the leader never runs two at once,
      // as an analysis of a big table can outlast the interval.
      app.leader.every('table statistics', CHECK_MS, () => tables.refresh());
    });
  },
  { name: 'statistics', dependencies: ['db', 'leader'] },
);
