// The notices module's public surface: game notices (admins' Normal ones, those other changes post,
// the players' list), the monitor's event list and the container events the instances module records.
export { eventList } from './events.service';
export { insertEvent, type EventValues } from './instance-events.repository';
export { insertNotice } from './notices.repository';
export {
  addNotice,
  editNotice,
  getNotices,
  playerNotices,
  removeNotice,
  toGameNotice,
  type GameNotice,
} from './notices.service';
