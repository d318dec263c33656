import type { Handlers } from '../../contract/handlers';
import { HttpError } from '../../lib/http-error';
import { sendEmpty } from '../../lib/reply';
import { requireUser } from '../../plugins/app/auth';
import { addressScope } from '../../plugins/app/brute-force';
import { releaseFiles } from '../../modules/attachments';
import { joinGame, leaveGame } from '../../modules/participations';

/** Joining a game with a team, and leaving it while not yet accepted (reference §5.3). */
export const gameJoinHandlers: Handlers = {
  async gameJoinGame(request, reply) {
    const user = requireUser(request);
    // Only a wrong invitation code counts: GZCTF leaves it unthrottled, but an admin's code is often a
    // short word, where a team's is 128 random bits and throttled all the same.
    await request.server.attempts.run(
      reply,
      [
        ['gameCodeUser', user.id],
        ['gameCodeAddress', addressScope(request.ip)],
      ],
      () => joinGame(request.server, request.params.id, user, request.body),
      { counts: (error) => error instanceof HttpError && error.messageKey === 'game.wrongInviteCode' },
    );
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
