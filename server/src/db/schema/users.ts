import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { roleEnum, userTokenPurposeEnum } from './enums';
import { files } from './files';

// GZCTF's ids are GUID v7 (time ordered); ours are random v4, so "in creation order" means
// ordering by register_at, not by id.
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    userName: varchar({ length: 15 }).notNull(),
    email: varchar({ length: 256 }).notNull(),
    emailConfirmed: boolean().notNull().default(false),
    passwordHash: text().notNull(),
    role: roleEnum().notNull().default('User'),
    ip: text().notNull().default('0.0.0.0'),
    lastSignedInAt: timestamptz().notNull().defaultNow(),
    lastVisitedAt: timestamptz().notNull().defaultNow(),
    registerAt: timestamptz().notNull().defaultNow(),
    bio: varchar({ length: 128 }).notNull().default(''),
    realName: varchar({ length: 128 }).notNull().default(''),
    stdNumber: varchar({ length: 64 }).notNull().default(''),
    phone: text(),
    avatarHash: varchar({ length: 64 }).references(() => files.hash, { onDelete: 'set null' }),
  },
  (t) => [
    // Identity treats names and addresses case-insensitively ("Admin" and "admin" are one user), and
    // login looks users up by either, so both uniqueness rules live on lower(...). Queries must use
    // lower(column) = lower($1) to hit these indexes.
    uniqueIndex('users_user_name_lower_key').on(sql`lower(${t.userName})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
  ],
);

// One row per signed-in browser. The cookie holds a random token; only its SHA-256 is stored, so a
// leaked table cannot be replayed. Expiry slides (7 days, as GZCTF_Token) by moving expires_at.
export const sessions = pgTable(
  'sessions',
  {
    id: varchar({ length: 64 }).primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz().notNull().defaultNow(),
    expiresAt: timestamptz().notNull(),
    ip: text(),
    userAgent: text(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

// Single-use tokens sent by mail (verify address, reset password, confirm a new address). Hashed like
// sessions; `usedAt` makes a second use detectable instead of silently succeeding. `email` pins the
// address the token was issued for (the new address for EmailChange).
export const userTokens = pgTable(
  'user_tokens',
  {
    tokenHash: varchar({ length: 64 }).primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: userTokenPurposeEnum().notNull(),
    email: varchar({ length: 256 }).notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
  },
  (t) => [index('user_tokens_user_id_purpose_idx').on(t.userId, t.purpose)],
);
