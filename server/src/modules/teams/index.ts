// The teams module's public surface: the players' and the admins' operations, how a team is shown,
// the team lock that accepting a participation sets, and the teams the admin's batch of users creates.
export { adminDeleteTeam, adminUpdateTeam, findTeams, getTeams } from './admin.service';
export { toTeamInfo, toTeamModel } from './teams.models';
export { insertTeamWithMembers } from './batch.repository';
export { lockTeam, setTeamLocked } from './teams.repository';
export {
  acceptInvite,
  assertCaptain,
  createTeam,
  deleteTeam,
  getInviteCode,
  getMyTeams,
  getTeam,
  kickMember,
  leaveTeam,
  lockTeamMembership,
  refreshInviteCode,
  replaceTeamAvatar,
  transferCaptaincy,
  updateTeamInfo,
  verifySignature,
} from './teams.service';
