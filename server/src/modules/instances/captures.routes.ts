import type { Handlers } from '../../contract/handlers';
import { attachmentDisposition } from '../../lib/content-types';
import { sendEmpty } from '../../lib/reply';
import {
  captureArchive,
  deleteAllCaptureFiles,
  deleteCaptureFile,
  listCaptureChallenges,
  listCaptureFiles,
  listCaptureTeams,
  openCaptureFile,
} from './captures.service';

/** Traffic captures for monitors (reference §2.5, §5.10); the Monitor role is checked by the auth plugin. */
export const capturesHandlers: Handlers = {
  async gameGetChallengesWithTrafficCapturing(request) {
    return listCaptureChallenges(request.server.db, request.server.env.dataDir, request.params.id);
  },

  async gameGetChallengeTraffic(request) {
    return listCaptureTeams(request.server.db, request.server.env.dataDir, request.params.challengeId);
  },

  async gameGetTeamTrafficFiles(request) {
    return listCaptureFiles(request.server.env.dataDir, request.params.challengeId, request.params.partId);
  },

  async gameGetTeamTrafficZip(request, reply) {
    const { challengeId, partId } = request.params;
    const { fileName, stream } = await captureArchive(request.server.env.dataDir, challengeId, partId);
    return reply
      .type('application/x-tar')
      .header('content-disposition', attachmentDisposition(fileName))
      .header('cache-control', 'no-store')
      .send(stream);
  },

  async gameGetTeamTraffic(request, reply) {
    const { challengeId, partId, filename } = request.params;
    const { stream, size } = await openCaptureFile(request.server.env.dataDir, challengeId, partId, filename);
    return reply
      .type('application/octet-stream')
      .header('content-length', String(size))
      .header('content-disposition', attachmentDisposition(filename))
      .header('cache-control', 'no-store')
      .send(stream);
  },

  async gameDeleteTeamTraffic(request, reply) {
    const { challengeId, partId, filename } = request.params;
    await deleteCaptureFile(request.server.env.dataDir, challengeId, partId, filename);
    request.log.info({ status: 'Success' }, `Capture ${filename} of challenge ${challengeId}, team ${partId} deleted`);
    return sendEmpty(reply);
  },

  async gameDeleteAllTeamTraffic(request, reply) {
    const { challengeId, partId } = request.params;
    await deleteAllCaptureFiles(request.server.env.dataDir, challengeId, partId);
    request.log.info({ status: 'Success' }, `Captures of challenge ${challengeId}, team ${partId} deleted`);
    return sendEmpty(reply);
  },
};
