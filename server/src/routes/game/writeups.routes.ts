import type { Handlers } from '../../contract/handlers';
import { HttpError } from '../../lib/http-error';
import { sendEmpty } from '../../lib/reply';
import { readUploads } from '../../lib/uploads';
import { requireUser } from '../../plugins/app/auth';
import { getWriteup, MAX_WRITEUP_BYTES, submitWriteup } from '../../modules/participations';

// Room for the multipart framing (boundaries, part headers, a few small fields) around the file.
const MAX_WRITEUP_BODY = MAX_WRITEUP_BYTES + 1024 * 1024;

/** The team's own writeup: what was sent, and sending (or replacing) it. */
export const gameWriteupHandlers: Handlers = {
  async gameGetWriteup(request) {
    return getWriteup(request.server.db, request.params.id, requireUser(request));
  },
  async gameSubmitWriteup(request, reply) {
    const user = requireUser(request);
    // A body announced as too big cannot hold a valid writeup: refused before anything is read.
    if (Number(request.headers['content-length'] ?? 0) > MAX_WRITEUP_BODY) {
      throw new HttpError(400, 'game.writeupInvalid');
    }
    // The upload is read only once the service has checked the game and the team (as for a team avatar).
    await submitWriteup(request.server.db, request.server.env.dataDir, request.params.id, user, async () => {
      const [upload] = await readUploads(request, {
        fields: ['file'],
        maxFiles: 1,
        maxBytes: MAX_WRITEUP_BYTES,
        tooLargeKey: 'game.writeupInvalid',
      });
      return upload;
    });
    return sendEmpty(reply);
  },
};
