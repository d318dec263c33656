import type { Handlers } from '../../contract/handlers';
import { sendEmpty } from '../../lib/reply';
import { adminDeleteTeam, adminUpdateTeam, findTeams, getTeams } from '../../modules/teams';

// Admin-tagged operations (reference §2.2) on teams; the teams module holds their rules.
export const adminTeamHandlers: Handlers = {
  async adminGetTeams(request) {
    const { count = 100, skip = 0, search, sort, order } = request.query;
    return getTeams(request.server.db, { count, skip, search, sort, order });
  },

  async adminSearchTeams(request) {
    return findTeams(request.server.db, request.query.hint);
  },

  async adminUpdateTeam(request, reply) {
    const team = await adminUpdateTeam(request.server.db, request.params.id, request.body);
    request.log.info({ status: 'Success' }, `Team ${team.name} (${team.id}) updated${team.locked ? ' (locked)' : ''}`);
    return sendEmpty(reply);
  },

  async adminDeleteTeam(request, reply) {
    const team = await adminDeleteTeam(request.server.db, request.server.env.dataDir, request.params.id);
    request.log.info({ status: 'Success' }, `Team ${team.name} (${team.id}) deleted`);
    return sendEmpty(reply);
  },
};
