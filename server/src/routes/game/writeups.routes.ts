import type { Handlers } from '../../contract/handlers';
import { sendEmpty } from '../../lib/reply';
import { readUploads } from '../../lib/uploads';
import { requireUser } from '../../plugins/app/auth';
import { getWriteup, MAX_WRITEUP_BYTES, submitWriteup } from '../../modules/participations';

/** The team's own writeup: what was sent, and sending (or replacing) it. */
export const gameWriteupHandlers: Handlers = {
  async gameGetWriteup(request) {
    return getWriteup(request.server.db, request.params.id, requireUser(request));
  },
  async gameSubmitWriteup(request, reply) {
    const user = requireUser(request);
    const [upload] = await readUploads(request, {
      fields: ['file'],
      maxFiles: 1,
      maxBytes: MAX_WRITEUP_BYTES,
      tooLargeKey: 'game.writeupInvalid',
    });
    await submitWriteup(request.server.db, request.server.env.dataDir, request.params.id, user, upload);
    return sendEmpty(reply);
  },
};
