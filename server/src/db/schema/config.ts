import { pgTable, text } from 'drizzle-orm/pg-core';

// Admin-edited settings that override the built-in defaults (GZCTF's Config table). The settings
// plugin owns the key and value format; to unset a setting, delete its row.
export const config = pgTable('config', {
  key: text().primaryKey(),
  value: text().notNull(),
});
