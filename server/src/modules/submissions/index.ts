// The submissions module's public surface: a player's flag and its status, the monitor's lists.
export { cheatInfoList, submissionList } from './monitor.service';
export { submissionStatus, submitFlag } from './submit.service';
