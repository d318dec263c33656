import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { DEFAULT_BLOOD_BONUS } from '../../lib/blood-bonus';
import { timestamptz } from './columns';
import { files } from './files';

export const games = pgTable(
  'games',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    title: text().notNull(),
    summary: text().notNull().default(''),
    content: text().notNull().default(''),
    hidden: boolean().notNull().default(false),
    posterHash: varchar({ length: 64 }).references(() => files.hash, { onDelete: 'set null' }),
    // Ed25519 key pair for team tokens, base64. The private key is stored XOR-ed with the XorKey
    // setting, as GZCTF does, so a database dump alone cannot forge tokens.
    publicKey: text().notNull(),
    privateKey: text().notNull(),
    acceptWithoutReview: boolean().notNull().default(false),
    inviteCode: varchar({ length: 32 }),
    // Null and [] both mean "no divisions"; joining must then carry no division.
    divisions: text().array(),
    teamMemberCountLimit: integer().notNull().default(0),
    containerCountLimit: integer().notNull().default(3),
    practiceMode: boolean().notNull().default(true),
    startAt: timestamptz().notNull(),
    endAt: timestamptz().notNull(),
    // Not in GZCTF 1.4.0: when set, the public scoreboard shows solves up to this instant only.
    freezeAt: timestamptz(),
    writeupRequired: boolean().notNull().default(false),
    // GZCTF defaults the deadline to the Unix epoch, i.e. "already passed".
    writeupDeadline: timestamptz()
      .notNull()
      .default(sql`to_timestamp(0)`),
    writeupNote: text().notNull().default(''),
    // GZCTF stores it as a long; the packed value needs 30 bits, so a JS number is exact.
    bloodBonus: bigint({ mode: 'number' }).notNull().default(DEFAULT_BLOOD_BONUS),
  },
  (t) => [
    index('games_start_at_idx').on(t.startAt),
    check('games_team_member_count_limit_non_negative', sql`${t.teamMemberCountLimit} >= 0`),
    check('games_container_count_limit_non_negative', sql`${t.containerCountLimit} >= 0`),
  ],
);
