import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { files } from './files';
import { users } from './users';

export const teams = pgTable(
  'teams',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: varchar({ length: 20 }).notNull(),
    bio: varchar({ length: 72 }),
    avatarHash: varchar({ length: 64 }).references(() => files.hash, { onDelete: 'set null' }),
    locked: boolean().notNull().default(false),
    inviteToken: varchar({ length: 32 }).notNull(),
    // Deleting a user who still captains a team must be refused (GZCTF answers 400), so restrict.
    captainId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('teams_captain_id_idx').on(t.captainId),
    check('teams_invite_token_format', sql`${t.inviteToken} ~ '^[0-9a-f]{32}$'`),
  ],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_id_idx').on(t.userId)],
);
