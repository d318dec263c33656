// The accounts module's public surface: a player's own account, the admin's user management, the
// session rows behind the session cookie, the few user queries the start-up admin needs, and the
// user row lock the teams module takes.
export { countUsers, findUserByName, insertUser } from './account.repository';
export {
  changePassword,
  confirmEmailChange,
  logIn,
  profile,
  register,
  replaceAvatar,
  requestEmailChange,
  requestRecovery,
  resetPassword,
  signInSubject,
  updateProfile,
  verifyEmail,
  type RequestContext,
} from './account.service';
export { lockUser } from './locks.repository';
export {
  deleteExpiredSessions,
  deleteSession,
  extendSession,
  identifySessions,
  insertSession,
  recordVisits,
  type SessionLookup,
  type SessionRecord,
  type Visit,
} from './session.repository';
export {
  addUsers,
  deleteUser,
  findUsers,
  getUserProfile,
  getUsers,
  resetUserPassword,
  updateUserInfo,
} from './users.service';
