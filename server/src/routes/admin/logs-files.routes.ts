import type { Handlers } from '../../contract/handlers';
import { getFiles } from '../../modules/attachments';
import { getLogs } from '../../plugins/app/logs.service';

/** The admin's log page and the list of stored files (reference §2.2). */
export const adminLogsFilesHandlers: Handlers = {
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
