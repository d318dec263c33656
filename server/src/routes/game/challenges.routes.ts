import type { Handlers } from '../../contract/handlers';
import { decryptApiField } from '../../lib/api-encryption';
import { sendJsonString } from '../../lib/reply';
import { requireUser } from '../../plugins/app/auth';
import { challengeDetail } from '../../modules/instances';
import { frozenChallengeScore } from '../../modules/scoreboard';
import { submissionStatus, submitFlag } from '../../modules/submissions';

/** A challenge as the team sees it, submitting a flag, and reading the submission's status back. */
export const gameChallengeHandlers: Handlers = {
  async gameGetChallenge(request) {
    const { id, challengeId } = request.params;
    const user = requireUser(request);
    const detail = await challengeDetail(request.server, id, challengeId, user);
    // Under a freeze a player sees the score the frozen board shows, not one that reveals later solves.
    const frozen = await frozenChallengeScore(request.server, id, challengeId, user);
    return frozen === undefined ? detail : { ...detail, score: frozen };
  },
  async gameSubmit(request) {
    const { id, challengeId } = request.params;
    const { globalConfig } = await request.server.settings.get();
    const flag = decryptApiField(globalConfig, request.body.flag, request.server.env.xorKey);
    return submitFlag(request.server, id, challengeId, requireUser(request), flag);
  },
  async gameStatus(request, reply) {
    const { id, challengeId, submitId } = request.params;
    const status = await submissionStatus(request.server.db, id, challengeId, submitId, requireUser(request));
    return sendJsonString(reply, status);
  },
};
