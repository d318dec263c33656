// The participations module's public surface: joining and leaving, a player's context in a game, the
// admin review and its list, writeups (the team's own and the admin's), dropping a member who leaves
// a team from its games, and the participation row lock behind a team's container operations.
export { listParticipationTeams } from './join.repository';
export { joinGame, leaveGame } from './join.service';
export { lockParticipationRow } from './locks.repository';
export { deleteUserParticipations } from './members.repository';
export { gameInfo, playContext } from './player.service';
export type { ParticipationRow } from './review.repository';
export { PARTICIPATION_STATUSES, participationList } from './review-list.service';
export { reviewParticipation } from './review.service';
export { getWriteup, MAX_WRITEUP_BYTES, submitWriteup } from './team-writeup.service';
export { archiveTimestamp, deleteWriteups, getWriteups, writeupArchive } from './writeups.service';
