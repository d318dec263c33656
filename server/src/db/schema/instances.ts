import { boolean, index, integer, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { challenges, flags } from './challenges';
import { timestamptz } from './columns';
import { containerStatusEnum } from './enums';
import { participations } from './participations';

// One row per (team in a game, challenge): GZCTF's GameInstance. GZCTF keys it by the pair; we add a
// surrogate id for containers to point at and keep the pair as a unique key (also the target of
// solves' foreign key).
export const gameInstances = pgTable(
  'game_instances',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    participationId: integer()
      .notNull()
      .references(() => participations.id, { onDelete: 'cascade' }),
    challengeId: integer()
      .notNull()
      .references(() => challenges.id, { onDelete: 'cascade' }),
    isLoaded: boolean().notNull().default(false),
    lastContainerOperation: timestamptz(),
    // DynamicAttachment: the flag (and attachment) assigned to this team.
    flagId: integer().references(() => flags.id, { onDelete: 'set null' }),
    // DynamicContainer: the flag generated for this team from the challenge's template. Unbounded:
    // templates saved before their flags' length was checked (challenges.service) may make longer ones.
    flag: text(),
  },
  (t) => [
    unique('game_instances_participation_id_challenge_id_key').on(t.participationId, t.challengeId),
    // A dynamic-attachment flag belongs to one team only, even if two teams open the challenge at once.
    uniqueIndex('game_instances_flag_id_key').on(t.flagId),
    // Cheat detection looks up "whose instance owns this answer" on every wrong dynamic answer.
    index('game_instances_challenge_id_flag_idx').on(t.challengeId, t.flag),
  ],
);

// A running (or starting) challenge container. Player containers belong to a game instance (at most
// one each); admin test containers have none and are referenced from challenges.test_container_id.
// Rows cascade away with their instance, so services must stop the real container before deleting
// games, participations or challenges.
export const containers = pgTable(
  'containers',
  {
    id: uuid().primaryKey().defaultRandom(),
    image: text().notNull(),
    // The Docker / Kubernetes id.
    containerId: text().notNull(),
    status: containerStatusEnum().notNull().default('Pending'),
    startedAt: timestamptz().notNull().defaultNow(),
    expectStopAt: timestamptz().notNull(),
    isProxy: boolean().notNull().default(false),
    ip: text().notNull().default(''),
    port: integer().notNull().default(0),
    publicIp: text(),
    publicPort: integer(),
    gameInstanceId: integer().references(() => gameInstances.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('containers_game_instance_id_key').on(t.gameInstanceId),
    index('containers_expect_stop_at_idx').on(t.expectStopAt),
  ],
);
