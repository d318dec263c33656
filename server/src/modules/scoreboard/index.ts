// The scoreboard module's public surface: the cached boards and how one is sent, the board's types,
// and the sheet exports.
export { ScoreboardCache, sendScoreboard } from './scoreboard-cache';
export type { ScoreboardEntry } from './scoreboard-board';
export { NO_SOLVE_TIME, type ScoreboardModel } from './scoreboard';
export { sheetLabelTexts, sheetTimestamp } from './sheets';
export { exportSheet, SUBMISSION_BATCH } from './sheet-export';
