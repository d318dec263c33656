import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uuid,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { attachments } from './attachments';
import { challengeCategoryEnum, challengeTypeEnum } from './enums';
import { games } from './games';
import { containers } from './instances';

// Defaults are GZCTF's entity defaults (not the edit DTO's), because creation builds the entity.
export const challenges = pgTable(
  'challenges',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    gameId: integer()
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    content: text().notNull().default(''),
    category: challengeCategoryEnum().notNull().default('Misc'),
    type: challengeTypeEnum().notNull().default('StaticAttachment'),
    hints: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isEnabled: boolean().notNull().default(false),
    flagTemplate: varchar({ length: 120 }),
    // Incremented by the flag checker on each team's first scored solve; drives the dynamic score.
    acceptedCount: integer().notNull().default(0),
    // GZCTF also keeps a SubmissionCount (checked submissions). Nothing in its API shows it, and
    // keeping it meant locking the challenge row for every wrong answer, which the intake judges
    // without the judge (submissions/intake.repository.ts); it is the count of the challenge's
    // submissions whose status is neither FlagSubmitted nor NotFound.
    // Unified download name of dynamic attachments.
    fileName: text().notNull().default('attachment'),
    attachmentId: integer().references(() => attachments.id, { onDelete: 'set null' }),
    testContainerId: uuid().references((): AnyPgColumn => containers.id, { onDelete: 'set null' }),
    containerImage: text(),
    memoryLimit: integer().notNull().default(64),
    // Units of 0.1 CPU.
    cpuCount: integer().notNull().default(1),
    storageLimit: integer().notNull().default(256),
    containerExposePort: integer().notNull().default(80),
    // Processes a container may run (a fork bomb stops here); not a GZCTF field.
    pidsLimit: integer().notNull().default(256),
    enableTrafficCapture: boolean().notNull().default(false),
    disableBloodBonus: boolean().notNull().default(false),
    originalScore: integer().notNull().default(1000),
    minScoreRate: doublePrecision().notNull().default(0.25),
    difficulty: doublePrecision().notNull().default(5),
  },
  (t) => [
    index('challenges_game_id_idx').on(t.gameId),
    check('challenges_min_score_rate_range', sql`${t.minScoreRate} >= 0 and ${t.minScoreRate} <= 1`),
    check('challenges_accepted_count_non_negative', sql`${t.acceptedCount} >= 0`),
  ],
);

// Static challenges accept any of their flags; for DynamicAttachment each flag (with its own
// attachment) is handed to exactly one team, `isOccupied` marking it taken.
export const flags = pgTable(
  'flags',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    challengeId: integer()
      .notNull()
      .references(() => challenges.id, { onDelete: 'cascade' }),
    flag: varchar({ length: 127 }).notNull(),
    isOccupied: boolean().notNull().default(false),
    attachmentId: integer().references(() => attachments.id, { onDelete: 'set null' }),
  },
  (t) => [index('flags_challenge_id_flag_idx').on(t.challengeId, t.flag)],
);
