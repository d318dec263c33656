// The notices module's public surface: game notices (admins' Normal ones, those other changes post,
// the players' list and its cache), the monitor's event list, the container events the instances module records,
// and the judge's blood notices and events (statements for its one write).
export { eventList } from './events.service';
export { insertEvent } from './instance-events.repository';
export { insertNotice } from './notices.repository';
export { NoticeLists } from './notice-lists';
export {
  bloodNoticeRows,
  insertBloodNotices,
  insertIntakeEventsFrom,
  insertJudgeEvents,
  judgeEventRows,
} from './judge.repository';
export {
  addNotice,
  editNotice,
  getNotices,
  isDefaultNoticePage,
  playerNotices,
  removeNotice,
  toGameNotice,
  type GameNotice,
} from './notices.service';
