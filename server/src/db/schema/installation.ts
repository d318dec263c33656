import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, uuid } from 'drizzle-orm/pg-core';

// One row, made by the migration that created the table: the identity of this database. Challenge
// containers carry it as a label, so platforms sharing one container engine only ever touch their
// own; caches shared between databases can be keyed by it too.
export const installation = pgTable(
  'installation',
  {
    id: uuid().primaryKey().defaultRandom(),
    // Unique and always true: a second row cannot exist.
    single: boolean().notNull().default(true).unique(),
  },
  (t) => [check('installation_single_row', sql`${t.single}`)],
);
