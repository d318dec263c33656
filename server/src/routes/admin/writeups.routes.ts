import type { Handlers } from '../../contract/handlers';
import { attachmentDisposition } from '../../lib/content-types';
import { sendPage } from '../../lib/paging';
import { sendEmpty } from '../../lib/reply';
import { deleteWriteups, getWriteups, writeupArchive } from '../../modules/participations';

/**
 * Writeups of a game for admins. Listing and downloading are tagged Admin in the contract (GZCTF's
 * AdminController) and deleting is tagged Edit, but all three belong to the game aggregate, so they
 * live with game authoring.
 */
export const writeupsHandlers: Handlers = {
  async adminWriteups(request, reply) {
    const { rows, total } = await getWriteups(request.server.db, request.params.id, request.query);
    return sendPage(reply, rows, total);
  },

  async adminDownloadAllWriteups(request, reply) {
    const { fileName, stream } = await writeupArchive(request.server.db, request.server.env.dataDir, request.params.id);
    request.log.info({ status: 'Success' }, `Writeups of game ${request.params.id} downloaded`);
    return reply
      .type('application/x-tar')
      .header('content-disposition', attachmentDisposition(fileName))
      .header('cache-control', 'no-store')
      .send(stream);
  },

  async editDeleteGameWriteUps(request, reply) {
    await deleteWriteups(request.server.db, request.server.env.dataDir, request.params.id);
    request.log.info({ status: 'Success' }, `Writeups of game ${request.params.id} deleted`);
    return sendEmpty(reply);
  },
};
