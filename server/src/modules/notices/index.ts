// The notices module's public surface: game notices (admins' Normal ones, those other changes post,
// the players' list) and the monitor's event list.
export { eventList } from './events.service';
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
