import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './users';

export const posts = pgTable(
  'posts',
  {
    // 8 hex characters chosen by the service, as GZCTF's post ids.
    id: varchar({ length: 8 }).primaryKey(),
    title: varchar({ length: 50 }).notNull(),
    summary: text().notNull().default(''),
    content: text().notNull().default(''),
    isPinned: boolean().notNull().default(false),
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('posts_pinned_updated_at_idx').on(t.isPinned, t.updatedAt)],
);
