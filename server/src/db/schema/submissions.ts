import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, uuid, varchar } from 'drizzle-orm/pg-core';
import { challenges } from './challenges';
import { ownedBy, timestamptz } from './columns';
import { answerResultEnum, submissionTypeEnum } from './enums';
import { games } from './games';
import { participations } from './participations';
import { teams } from './teams';
import { users } from './users';

// Every flag attempt, as the monitor sees it. Saved as FlagSubmitted and updated by the checker.
export const submissions = pgTable(
  'submissions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    answer: varchar({ length: 127 }).notNull(),
    status: answerResultEnum().notNull().default('FlagSubmitted'),
    submittedAt: timestamptz().notNull().defaultNow(),
    // The history outlives the user account.
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    teamId: ownedBy(() => teams.id),
    participationId: ownedBy(() => participations.id),
    gameId: ownedBy(() => games.id),
    challengeId: ownedBy(() => challenges.id),
  },
  (t) => [
    index('submissions_game_id_submitted_at_idx').on(t.gameId, t.submittedAt),
    index('submissions_participation_id_challenge_id_idx').on(t.participationId, t.challengeId),
    index('submissions_challenge_id_idx').on(t.challengeId),
    index('submissions_team_id_idx').on(t.teamId),
    index('submissions_user_id_idx').on(t.userId),
    // The checker re-queues unchecked submissions at start-up.
    index('submissions_unchecked_idx')
      .on(t.id)
      .where(sql`${t.status} = 'FlagSubmitted'`),
  ],
);

// The scored solve of a challenge by a team: at most one per (participation, challenge), enforced by
// the primary key. A separate table rather than a partial unique index on submissions because a team
// may submit the correct flag again later (still answered Accepted, type Normal, not scored): "is
// accepted" and "is the solve" are different facts, and only the second must be unique.
//
// The flag checker inserts here with ON CONFLICT DO NOTHING inside its transaction; the row that
// lands is the first solve (bump accepted_count, pick the blood type), a conflict
// means the team had already solved it. The scoreboard reads solves instead of searching
// submissions for the first accepted one per team and challenge.
export const solves = pgTable(
  'solves',
  {
    participationId: integer().notNull(),
    challengeId: integer().notNull(),
    // The solve disappears with its submission, and so with the participation, the challenge and the
    // game. No foreign key on the pair itself: the submission already holds it (the intake admits an
    // answer only from a team with the challenge's instance), and checking the pair against
    // game_instances per solve had cost the judge a fifth of its write statement.
    submissionId: integer()
      .notNull()
      .unique('solves_submission_id_key')
      .references(() => submissions.id, { onDelete: 'cascade' }),
    // Blood type as counted by the checker at solve time (live notices); the scoreboard re-derives
    // bloods from solve order because accepted counts can be recalculated.
    type: submissionTypeEnum().notNull().default('Normal'),
    solvedAt: timestamptz().notNull(),
  },
  (t) => [
    primaryKey({ name: 'solves_participation_id_challenge_id_pk', columns: [t.participationId, t.challengeId] }),
    index('solves_challenge_id_solved_at_idx').on(t.challengeId, t.solvedAt),
  ],
);

// A wrong answer that equals another team's dynamic flag. Keyed by the submission: one record each.
export const cheatInfo = pgTable(
  'cheat_info',
  {
    submissionId: integer()
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    gameId: ownedBy(() => games.id),
    submitParticipationId: ownedBy(() => participations.id),
    // The team whose flag leaked.
    sourceParticipationId: ownedBy(() => participations.id),
  },
  (t) => [
    index('cheat_info_game_id_idx').on(t.gameId),
    index('cheat_info_submit_participation_id_idx').on(t.submitParticipationId),
    index('cheat_info_source_participation_id_idx').on(t.sourceParticipationId),
  ],
);
