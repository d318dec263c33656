import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

// Content-addressed uploads (GZCTF LocalFile). The SHA-256 of the content is the key, so uploading the
// same bytes twice bumps `referenceCount` instead of storing a second copy; the bytes themselves live
// in the storage plugin under uploads/{hash[0:2]}/{hash[2:4]}/{hash}.
export const files = pgTable(
  'files',
  {
    hash: varchar({ length: 64 }).primaryKey(),
    name: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    referenceCount: integer().notNull().default(1),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    check('files_hash_format', sql`${t.hash} ~ '^[0-9a-f]{64}$'`),
    check('files_reference_count_non_negative', sql`${t.referenceCount} >= 0`),
  ],
);
