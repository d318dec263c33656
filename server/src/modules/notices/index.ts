// The notices module's public surface: game notices (admins' Normal ones, and those other changes post).
export { insertNotice } from './notices.repository';
export { addNotice, editNotice, getNotices, removeNotice, toGameNotice, type GameNotice } from './notices.service';
