// The scoreboard module's public surface: the cached boards and how one is sent, the sheet exports,
// and the boards as each reader sees them (details, CTFtime feed).
export { ScoreboardCache, scoreboardBody } from './scoreboard-cache';
export { sheetLabelTexts, sheetTimestamp } from './sheets';
export { exportSheet, SUBMISSION_BATCH } from './sheet-export';
export {
  ctftimeFeed,
  details,
  frozenChallengeScore,
  scoreboardEntry,
  scoreboardJson,
  detailsBody,
} from './views.service';
