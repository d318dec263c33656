// The challenges module's public surface: challenges, flags and the accepted-count recount, and what
// players' instances take from them (an enabled challenge, a free dynamic flag, its attachment).
export {
  findChallenge,
  findEnabledChallenge,
  findFlagAttachmentId,
  listChallenges,
  takeFreeFlag,
  type ChallengeRow,
} from './challenges.repository';
export {
  addFlags,
  createChallenge,
  deleteChallenge,
  editChallenge,
  getChallenge,
  getChallenges,
  removeFlag,
  setAttachment,
  updateAcceptedCounts,
} from './challenges.service';
