import { relations } from 'drizzle-orm';
import { attachments } from './attachments';
import { challenges, flags } from './challenges';
import { files } from './files';
import { games } from './games';
import { containers, gameInstances } from './instances';
import { gameEvents, gameNotices } from './notices';
import { participations, userParticipations } from './participations';
import { posts } from './posts';
import { cheatInfo, solves, submissions } from './submissions';
import { teamMembers, teams } from './teams';
import { sessions, users } from './users';

// Relations only feed db.query.*; they add nothing to the SQL. They live in one file because they
// cross aggregates, which would otherwise make the schema files import each other in circles.

export const usersRelations = relations(users, ({ one, many }) => ({
  avatar: one(files, { fields: [users.avatarHash], references: [files.hash] }),
  sessions: many(sessions),
  memberships: many(teamMembers),
  captainOf: many(teams),
  participations: many(userParticipations),
}));

export const sessionsRelations = relations(sessions, ({ one }) => ({
  user: one(users, { fields: [sessions.userId], references: [users.id] }),
}));

export const teamsRelations = relations(teams, ({ one, many }) => ({
  captain: one(users, { fields: [teams.captainId], references: [users.id] }),
  avatar: one(files, { fields: [teams.avatarHash], references: [files.hash] }),
  members: many(teamMembers),
  participations: many(participations),
}));

export const teamMembersRelations = relations(teamMembers, ({ one }) => ({
  team: one(teams, { fields: [teamMembers.teamId], references: [teams.id] }),
  user: one(users, { fields: [teamMembers.userId], references: [users.id] }),
}));

export const gamesRelations = relations(games, ({ one, many }) => ({
  poster: one(files, { fields: [games.posterHash], references: [files.hash] }),
  challenges: many(challenges),
  participations: many(participations),
  notices: many(gameNotices),
  events: many(gameEvents),
}));

export const participationsRelations = relations(participations, ({ one, many }) => ({
  game: one(games, { fields: [participations.gameId], references: [games.id] }),
  team: one(teams, { fields: [participations.teamId], references: [teams.id] }),
  writeup: one(files, { fields: [participations.writeupHash], references: [files.hash] }),
  members: many(userParticipations),
  instances: many(gameInstances),
}));

export const userParticipationsRelations = relations(userParticipations, ({ one }) => ({
  user: one(users, { fields: [userParticipations.userId], references: [users.id] }),
  participation: one(participations, {
    fields: [userParticipations.participationId],
    references: [participations.id],
  }),
}));

export const challengesRelations = relations(challenges, ({ one, many }) => ({
  game: one(games, { fields: [challenges.gameId], references: [games.id] }),
  attachment: one(attachments, {
    fields: [challenges.attachmentId],
    references: [attachments.id],
    relationName: 'challenge_attachment',
  }),
  testContainer: one(containers, { fields: [challenges.testContainerId], references: [containers.id] }),
  flags: many(flags),
  instances: many(gameInstances),
}));

export const flagsRelations = relations(flags, ({ one }) => ({
  challenge: one(challenges, { fields: [flags.challengeId], references: [challenges.id] }),
  attachment: one(attachments, {
    fields: [flags.attachmentId],
    references: [attachments.id],
    relationName: 'flag_attachment',
  }),
}));

export const attachmentsRelations = relations(attachments, ({ one }) => ({
  localFile: one(files, { fields: [attachments.localFileHash], references: [files.hash] }),
}));

export const gameInstancesRelations = relations(gameInstances, ({ one }) => ({
  participation: one(participations, {
    fields: [gameInstances.participationId],
    references: [participations.id],
  }),
  challenge: one(challenges, { fields: [gameInstances.challengeId], references: [challenges.id] }),
  assignedFlag: one(flags, { fields: [gameInstances.flagId], references: [flags.id] }),
  container: one(containers),
  solve: one(solves),
}));

export const containersRelations = relations(containers, ({ one }) => ({
  gameInstance: one(gameInstances, { fields: [containers.gameInstanceId], references: [gameInstances.id] }),
}));

export const submissionsRelations = relations(submissions, ({ one }) => ({
  user: one(users, { fields: [submissions.userId], references: [users.id] }),
  team: one(teams, { fields: [submissions.teamId], references: [teams.id] }),
  participation: one(participations, {
    fields: [submissions.participationId],
    references: [participations.id],
  }),
  game: one(games, { fields: [submissions.gameId], references: [games.id] }),
  challenge: one(challenges, { fields: [submissions.challengeId], references: [challenges.id] }),
}));

export const solvesRelations = relations(solves, ({ one }) => ({
  submission: one(submissions, { fields: [solves.submissionId], references: [submissions.id] }),
  instance: one(gameInstances, {
    fields: [solves.participationId, solves.challengeId],
    references: [gameInstances.participationId, gameInstances.challengeId],
  }),
}));

export const cheatInfoRelations = relations(cheatInfo, ({ one }) => ({
  submission: one(submissions, { fields: [cheatInfo.submissionId], references: [submissions.id] }),
  game: one(games, { fields: [cheatInfo.gameId], references: [games.id] }),
  submitParticipation: one(participations, {
    fields: [cheatInfo.submitParticipationId],
    references: [participations.id],
    relationName: 'cheat_submitter',
  }),
  sourceParticipation: one(participations, {
    fields: [cheatInfo.sourceParticipationId],
    references: [participations.id],
    relationName: 'cheat_source',
  }),
}));

export const gameNoticesRelations = relations(gameNotices, ({ one }) => ({
  game: one(games, { fields: [gameNotices.gameId], references: [games.id] }),
}));

export const gameEventsRelations = relations(gameEvents, ({ one }) => ({
  game: one(games, { fields: [gameEvents.gameId], references: [games.id] }),
  user: one(users, { fields: [gameEvents.userId], references: [users.id] }),
  team: one(teams, { fields: [gameEvents.teamId], references: [teams.id] }),
}));

export const postsRelations = relations(posts, ({ one }) => ({
  author: one(users, { fields: [posts.authorId], references: [users.id] }),
}));
