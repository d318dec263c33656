import type { Handlers } from '../../contract/handlers';
import { sendEmpty } from '../../lib/reply';
import { requireUser } from '../../plugins/app/auth';
import { releaseFiles } from '../../modules/attachments';
import { joinGame, leaveGame } from '../../modules/participations';

/** Joining a game with a team, and leaving it while not yet accepted (reference §5.3). */
export const gameJoinHandlers: Handlers = {
  async gameJoinGame(request, reply) {
    const user = requireUser(request);
    await joinGame(request.server, request.params.id, user, request.body);
    request.log.info(
      { status: 'Success' },
      `${user.userName} joined game ${request.params.id} with team ${request.body.teamId}`,
    );
    return sendEmpty(reply);
  },
  async gameLeaveGame(request, reply) {
    const user = requireUser(request);
    const db = request.server.db;
    const writeup = await leaveGame(db, request.params.id, user);
    if (writeup) await releaseFiles(db, request.server.env.dataDir, [writeup]);
    return sendEmpty(reply);
  },
};
