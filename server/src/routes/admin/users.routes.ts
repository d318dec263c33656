import type { Handlers } from '../../contract/handlers';
import { sendEmpty, sendJsonString } from '../../lib/reply';
import { requireUser } from '../../plugins/app/auth';
import {
  addUsers,
  deleteUser,
  findUsers,
  getUserProfile,
  getUsers,
  resetUserPassword,
  updateUserInfo,
} from '../../modules/accounts';

/**
 * The admin's user management (reference §2.2). Role checks happen centrally (plugins/app/auth.ts);
 * these handlers log each change for the admin log page.
 */
export const adminUsersHandlers: Handlers = {
  async adminGetUsers(request) {
    const { count = 100, skip = 0, search, sort, order } = request.query;
    return getUsers(request.server.db, { count, skip, search, sort, order });
  },

  async adminSearchUsers(request) {
    return findUsers(request.server.db, request.query.hint);
  },

  async adminAddUsers(request, reply) {
    const result = await addUsers(request.server.db, request.body);
    request.log.info(
      { status: 'Success' },
      `Batch of ${result.users} user(s) created or updated, ${result.teams} team(s) created`,
    );
    return sendEmpty(reply);
  },

  async adminUserInfo(request) {
    return getUserProfile(request.server.db, request.params.userid);
  },

  async adminUpdateUserInfo(request, reply) {
    const caller = requireUser(request);
    const user = await updateUserInfo(request.server.db, caller.id, request.params.userid, request.body);
    const role = request.body.role != null ? ` (role ${user.role})` : '';
    request.log.info({ status: 'Success' }, `User ${user.userName} updated${role}`);
    return sendEmpty(reply);
  },

  async adminResetPassword(request, reply) {
    const { password, user } = await resetUserPassword(request.server.db, request.params.userid);
    request.log.info({ status: 'Success' }, `Password of ${user.userName} reset`);
    return sendJsonString(reply, password);
  },

  async adminDeleteUser(request, reply) {
    const caller = requireUser(request);
    const user = await deleteUser(request.server.db, request.server.env.dataDir, caller.id, request.params.userid);
    request.log.info({ status: 'Success' }, `User ${user.userName} deleted`);
    return sendEmpty(reply);
  },
};
