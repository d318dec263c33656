import { index, integer, pgTable, uuid } from 'drizzle-orm/pg-core';
import { formatValues, ownedBy, timestamptz } from './columns';
import { eventTypeEnum, noticeTypeEnum } from './enums';
import { games } from './games';
import { teams } from './teams';
import { users } from './users';

// `values` are the format arguments of GZCTF's FormattableData, e.g. [content] for Normal notices,
// [teamName, challengeTitle] for bloods; the client formats them in its own language.
export const gameNotices = pgTable(
  'game_notices',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    gameId: ownedBy(() => games.id),
    type: noticeTypeEnum().notNull(),
    values: formatValues(),
    publishedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('game_notices_game_id_published_at_idx').on(t.gameId, t.publishedAt)],
);

// Monitor-only feed. User and team survive as null when deleted so the feed keeps its history.
// That null is written by the delete's foreign-key action, which reads the whole feed to find the rows
// (a row per judged flag): user_id and team_id are left unindexed on purpose, since every submission
// inserts here and deleting a user or a team is a rare admin action.
export const gameEvents = pgTable(
  'game_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    gameId: ownedBy(() => games.id),
    type: eventTypeEnum().notNull(),
    values: formatValues(),
    at: timestamptz().notNull().defaultNow(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    teamId: integer().references(() => teams.id, { onDelete: 'set null' }),
  },
  (t) => [index('game_events_game_id_at_idx').on(t.gameId, t.at)],
);
