// The submissions module's public surface: a player's flag and its status, the judge's queue, and the
// monitor's lists.
export { FlagChecker, unjudgedIds } from './checker';
export { submissionBatch } from './monitor.repository';
export { cheatInfoList, submissionList } from './monitor.service';
export { submissionStatus, submitFlag } from './submit.service';
