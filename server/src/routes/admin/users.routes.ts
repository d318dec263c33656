import type { Handlers } from '../../contract/handlers';
import { MAX_IMAGE_BYTES } from '../../lib/images';
import { sendEmpty, sendJsonString } from '../../lib/reply';
import { readUploads } from '../../lib/uploads';
import { requireUser } from '../../plugins/app/auth';
import { getFiles, getLogs } from './admin.service';
import { getConfig, resetLogo, updateConfig, updateLogo } from '../settings';
import {
  addUsers,
  deleteUser,
  findUsers,
  getUserProfile,
  getUsers,
  resetPassword,
  updateUserInfo,
} from './users.service';

/**
 * Site administration (reference §2.2): settings and logo, users, logs and files. Teams, participation,
 * writeups and instances are separate work. Role checks happen centrally (plugins/app/auth.ts); these
 * handlers add the business rules and log each change for the admin log page.
 */
export const adminHandlers: Handlers = {
  async adminGetConfigs(request) {
    const { accountPolicy, globalConfig, containerPolicy } = await getConfig(request.server);
    // The payload encryption key pair never leaves the server this way (the public half is in /api/config).
    const { apiPublicKey: _public, apiPrivateKey: _private, ...publicGlobalConfig } = globalConfig;
    return { accountPolicy, globalConfig: publicGlobalConfig, containerPolicy };
  },

  async adminUpdateConfigs(request, reply) {
    await updateConfig(request.server, request.body);
    const sections = Object.entries(request.body)
      .filter(([, value]) => value != null)
      .map(([key]) => key);
    request.log.info({ status: 'Success' }, `Settings updated: ${sections.join(', ') || 'nothing'}`);
    return sendEmpty(reply);
  },

  async adminUpdateLogo(request, reply) {
    const [upload] = await readUploads(request, {
      fields: ['file'],
      maxBytes: MAX_IMAGE_BYTES,
      tooLargeKey: 'assets.imageTooLarge',
      tooLargeParams: { limit: '3 MiB' },
    });
    const { logoHash } = await updateLogo(request.server, upload!.buffer);
    request.log.info({ status: 'Success' }, `Platform logo updated (${logoHash.slice(0, 12)})`);
    return sendEmpty(reply);
  },

  async adminResetLogo(request, reply) {
    await resetLogo(request.server);
    request.log.info({ status: 'Success' }, 'Platform logo reset to the default');
    return sendEmpty(reply);
  },

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
    const user = await updateUserInfo(request.server.db, request.params.userid, request.body);
    const role = request.body.role != null ? ` (role ${user.role})` : '';
    request.log.info({ status: 'Success' }, `User ${user.userName} updated${role}`);
    return sendEmpty(reply);
  },

  async adminResetPassword(request, reply) {
    const { password, user } = await resetPassword(request.server.db, request.params.userid);
    request.log.info({ status: 'Success' }, `Password of ${user.userName} reset`);
    return sendJsonString(reply, password);
  },

  async adminDeleteUser(request, reply) {
    const caller = requireUser(request);
    const user = await deleteUser(request.server.db, request.server.env.dataDir, caller.id, request.params.userid);
    request.log.info({ status: 'Success' }, `User ${user.userName} deleted`);
    return sendEmpty(reply);
  },

  async adminLogs(request) {
    return getLogs(request.server.db, {
      level: request.query.level,
      count: request.query.count ?? 50,
      skip: request.query.skip ?? 0,
    });
  },

  async adminFiles(request) {
    return getFiles(request.server.db, { count: request.query.count ?? 50, skip: request.query.skip ?? 0 });
  },
};
