// The challenges module's public surface: challenges, flags and the accepted-count recount.
export { findChallenge, listChallenges } from './challenges.repository';
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
