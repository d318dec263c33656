import type { Handlers } from '../../contract/handlers';
import { HttpError } from '../../lib/http-error';
import { MAX_IMAGE_BYTES } from '../../lib/images';
import { sendEmpty, sendJsonString } from '../../lib/reply';
import { readUploads } from '../../lib/uploads';
import { requireUser } from '../../plugins/app/auth';
import { addressScope } from '../../plugins/app/brute-force';
import * as teams from '../../modules/teams';

/** The answers to a code that was not right: what a guess gets. */
const INVITE_GUESS_KEYS = new Set(['team.inviteMalformed', 'team.notFound', 'team.inviteInvalid']);

/**
 * Teams (reference §2.8). The contract's `x-auth` (signed in, not banned) is enforced centrally;
 * ownership (captain only, member only) is the service's job. Membership changes are logged for the
 * admin log page, as GZCTF does.
 */
export const teamHandlers: Handlers = {
  async teamGetTeamsInfo(request) {
    return teams.getMyTeams(request.server.db, requireUser(request));
  },

  async teamCreateTeam(request) {
    const team = await teams.createTeam(request.server.db, requireUser(request), request.body);
    request.log.info({ status: 'Success' }, `Team ${team.name} (${team.id}) created`);
    return team;
  },

  async teamGetBasicInfo(request) {
    return teams.getTeam(request.server.db, request.params.id);
  },

  async teamUpdateTeam(request) {
    return teams.updateTeamInfo(request.server.db, requireUser(request), request.params.id, request.body);
  },

  async teamDeleteTeam(request, reply) {
    const team = await teams.deleteTeam(
      request.server.db,
      request.server.env.dataDir,
      requireUser(request),
      request.params.id,
    );
    request.log.info({ status: 'Success' }, `Team ${team.name} (${team.id}) deleted`);
    return sendEmpty(reply);
  },

  async teamAvatar(request, reply) {
    const user = requireUser(request);
    // Refuse strangers before reading their upload.
    await teams.assertCaptain(request.server.db, user, request.params.id);
    const [upload] = await readUploads(request, {
      fields: ['file'],
      maxFiles: 1,
      maxBytes: MAX_IMAGE_BYTES,
      tooLargeKey: 'assets.imageTooLarge',
      tooLargeParams: { limit: '3 MiB' },
    });
    const url = await teams.replaceTeamAvatar(
      request.server.db,
      request.server.env.dataDir,
      user,
      request.params.id,
      upload!.buffer,
    );
    return sendJsonString(reply, url);
  },

  async teamInviteCode(request, reply) {
    return sendJsonString(reply, await teams.getInviteCode(request.server.db, requireUser(request), request.params.id));
  },

  async teamUpdateInviteToken(request, reply) {
    return sendJsonString(
      reply,
      await teams.refreshInviteCode(request.server.db, requireUser(request), request.params.id),
    );
  },

  async teamAccept(request, reply) {
    const user = requireUser(request);
    // Wrong codes are counted per user and per address; a code that works (even for a team one is
    // already in) proves it was known, so it does not count.
    const team = await request.server.attempts.run(
      reply,
      [
        ['inviteUser', user.id],
        ['inviteAddress', addressScope(request.ip)],
      ],
      () => teams.acceptInvite(request.server.db, user, request.body),
      { counts: (error) => error instanceof HttpError && INVITE_GUESS_KEYS.has(error.messageKey) },
    );
    request.log.info({ status: 'Success' }, `Joined team ${team.name} (${team.id})`);
    return sendEmpty(reply);
  },

  async teamKickUser(request) {
    const { id, userId } = request.params;
    const team = await teams.kickMember(request.server.db, requireUser(request), id, userId);
    request.log.info({ status: 'Success' }, `User ${userId} removed from team ${team.name} (${team.id})`);
    return team;
  },

  async teamLeave(request, reply) {
    const team = await teams.leaveTeam(request.server.db, requireUser(request), request.params.id);
    request.log.info({ status: 'Success' }, `Left team ${team.name} (${team.id})`);
    return sendEmpty(reply);
  },

  async teamTransfer(request) {
    const { newCaptainId } = request.body;
    const team = await teams.transferCaptaincy(
      request.server.db,
      requireUser(request),
      request.params.id,
      newCaptainId,
    );
    request.log.info({ status: 'Success' }, `Captaincy of team ${team.name} (${team.id}) handed to ${newCaptainId}`);
    return team;
  },

  async teamVerifySignature(request, reply) {
    teams.verifySignature(request.body);
    return sendEmpty(reply);
  },
};
