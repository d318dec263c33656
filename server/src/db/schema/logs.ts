import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

// Information-and-above log lines for the admin log page. `level` is a Serilog level name
// (Information, Warning, Error, Fatal) and `status` a TaskStatus name, both as GZCTF reports them.
export const logs = pgTable(
  'logs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    at: timestamptz().notNull().defaultNow(),
    level: text().notNull(),
    logger: text().notNull(),
    userName: text(),
    ip: text(),
    message: text().notNull(),
    status: text(),
    exception: text(),
  },
  (t) => [index('logs_at_idx').on(t.at), index('logs_level_at_idx').on(t.level, t.at)],
);
