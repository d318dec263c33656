import { sql } from 'drizzle-orm';
import { integer, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

// Every instant is stored with a time zone and read back as a Date; the API turns it into Unix ms.
export const timestamptz = () => timestamp({ withTimezone: true, mode: 'date' });

/** A required reference to a row whose deletion takes this row with it. */
export const ownedBy = (target: () => AnyPgColumn) => integer().notNull().references(target, { onDelete: 'cascade' });

/** The format arguments of a notice or an event (GZCTF's FormattableData), none by default. */
export const formatValues = () =>
  text()
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);
