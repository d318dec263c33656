// The challenges module's public surface: challenges, flags and the accepted-count recount, what
// players' instances take from them (an enabled challenge, a free dynamic flag, its attachment, the
// test container it points at, under the challenge's lock), and what the judge locks and counts
// (lockChallengeCounts, addJudgedCounts).
export {
  addJudgedCounts,
  findChallenge,
  findEnabledChallenge,
  findFlagAttachmentId,
  listChallenges,
  lockChallenge,
  lockChallengeCounts,
  lockChallengesOfGames,
  recountAcceptedCounts,
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
export { setTestContainer } from './test-container.repository';
