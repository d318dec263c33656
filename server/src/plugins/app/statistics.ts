import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';

/** How often the tables' sizes are compared with their statistics. */
const CHECK_MS = 5_000;

/**
 * Keeps the planner's statistics in step with the tables where nothing else does: PGlite has no
 * autovacuum, and a PostgreSQL server may run with it off (these CI machines do). Each connection
 * caches plans made from those statistics, the foreign-key checks' among them; made while a table
 * was nearly empty they scan it whole, and stay so as it grows (a solve's check of its submission
 * was seen taking 1.6 ms, reading 30,000 submissions). A table that grew by a fifth (and 8 pages)
 * since it was last analyzed is analyzed again, which also makes every connection re-plan.
 */
export class TableStatistics {
  constructor(private readonly db: Db) {}

  /** Analyzes the tables that outgrew their statistics; returns their names. */
  async refresh(): Promise<string[]> {
    const grown = await this.db.execute<{ name: string }>(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages * 1.2, c.relpages + 8)
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
