import { foreignKey, index, integer, pgTable, primaryKey, text, unique, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { participationStatusEnum } from './enums';
import { files } from './files';
import { games } from './games';
import { teams } from './teams';
import { users } from './users';

// A team's entry in a game. Deleting the game or the team removes it together with everything
// hanging off it (members, instances, submissions).
export const participations = pgTable(
  'participations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    gameId: integer()
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    status: participationStatusEnum().notNull().default('Pending'),
    // "{teamId}:{signature}", shown to the team as its team token.
    token: text().notNull(),
    division: text(),
    writeupHash: varchar({ length: 64 }).references(() => files.hash, { onDelete: 'set null' }),
    writeupUploadedAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    unique('participations_game_id_team_id_key').on(t.gameId, t.teamId),
    // Target of user_participations' composite key, see there.
    unique('participations_id_game_id_key').on(t.id, t.gameId),
    index('participations_team_id_idx').on(t.teamId),
  ],
);

// Which members of a team play in a game. (user_id, game_id) is the key, so a user can be in at
// most one team per game however the join requests race. game_id is copied from the participation
// to make that key possible; the composite foreign key keeps the copy honest.
export const userParticipations = pgTable(
  'user_participations',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gameId: integer().notNull(),
    participationId: integer().notNull(),
    joinedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'user_participations_user_id_game_id_pk', columns: [t.userId, t.gameId] }),
    foreignKey({
      name: 'user_participations_participation_fk',
      columns: [t.participationId, t.gameId],
      foreignColumns: [participations.id, participations.gameId],
    }).onDelete('cascade'),
    index('user_participations_participation_id_idx').on(t.participationId),
  ],
);
