import type { Handlers } from '../../contract/handlers';
import { sendEmpty } from '../../lib/reply';
import { reviewParticipation } from '../../modules/participations';

/**
 * `PUT /api/admin/participation/{id}`: tagged Admin in the contract (GZCTF's AdminController), but the
 * participation is part of the game aggregate, so its review lives with game authoring.
 */
export const reviewHandlers: Handlers = {
  async adminParticipation(request, reply) {
    const { id } = request.params;
    await reviewParticipation(request.server.db, id, request.body);
    request.log.info(
      { status: 'Success' },
      `Participation ${id} updated (${[request.body.status, request.body.division].filter(Boolean).join(', ')})`,
    );
    return sendEmpty(reply);
  },
};
