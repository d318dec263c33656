import type { Handlers } from '../../contract/handlers';
import { HttpError } from '../../lib/http-error';
import { MAX_IMAGE_BYTES } from '../../lib/images';
import { sendEmpty, sendJsonString } from '../../lib/reply';
import { readUploads } from '../../lib/uploads';
import {
  addFlags,
  createChallenge,
  deleteChallenge,
  editChallenge,
  getChallenge,
  getChallenges,
  removeFlag,
  setAttachment,
  updateAcceptedCounts,
} from '../../modules/challenges';
import { createGame, deleteGame, editGame, getGame, getGames, updatePoster } from '../../modules/games';
import { addNotice, editNotice, getNotices, removeNotice } from '../../modules/notices';

/**
 * Game authoring (reference §2.4, tag Edit): games, their notices, challenges, flags and attachments.
 * Posts are in modules/posts; test containers come with the container work. Every operation is
 * Admin-only through the contract's `x-auth`.
 */
export const editHandlers: Handlers = {
  async editGetGames(request) {
    return getGames(request.server.db, request.query);
  },

  async editAddGame(request) {
    const { env } = request.server;
    if (!env.xorKey) request.log.warn('XOR_KEY is not set: the new game private key is stored unprotected');
    const game = await createGame(request.server.db, env.xorKey, request.body);
    request.log.info({ status: 'Success' }, `Game ${game.id} "${game.title}" created`);
    return game;
  },

  async editGetGame(request) {
    return getGame(request.server.db, request.params.id);
  },

  async editUpdateGame(request) {
    const game = await editGame(request.server.db, request.params.id, request.body);
    request.log.info({ status: 'Success' }, `Game ${game.id} "${game.title}" updated`);
    return game;
  },

  async editDeleteGame(request, reply) {
    const { id } = request.params;
    try {
      await deleteGame(request.server.db, request.server.env.dataDir, id);
    } catch (error) {
      if (error instanceof HttpError && error.cause)
        request.log.error({ err: error.cause }, `Deleting game ${id} failed`);
      throw error;
    }
    request.log.info({ status: 'Success' }, `Game ${id} deleted`);
    return sendEmpty(reply);
  },

  async editUpdateGamePoster(request, reply) {
    const [upload] = await readUploads(request, {
      fields: ['file'],
      maxFiles: 1,
      maxBytes: MAX_IMAGE_BYTES,
      tooLargeKey: 'assets.imageTooLarge',
      tooLargeParams: { limit: '3 MiB' },
    });
    const url = await updatePoster(request.server.db, request.server.env.dataDir, request.params.id, upload!.buffer);
    request.log.info({ status: 'Success' }, `Poster of game ${request.params.id} updated`);
    return sendJsonString(reply, url);
  },

  async editAddGameNotice(request) {
    const notice = await addNotice(request.server.db, request.params.id, request.body);
    request.log.info({ status: 'Success' }, `Notice ${notice.id} of game ${request.params.id} published`);
    return notice;
  },

  async editGetGameNotices(request) {
    return getNotices(request.server.db, request.params.id);
  },

  async editUpdateGameNotice(request) {
    const { id, noticeId } = request.params;
    const notice = await editNotice(request.server.db, id, noticeId, request.body);
    request.log.info({ status: 'Success' }, `Notice ${noticeId} of game ${id} updated`);
    return notice;
  },

  async editDeleteGameNotice(request, reply) {
    const { id, noticeId } = request.params;
    await removeNotice(request.server.db, id, noticeId);
    request.log.info({ status: 'Success' }, `Notice ${noticeId} of game ${id} deleted`);
    return sendEmpty(reply);
  },

  async editAddGameChallenge(request) {
    const challenge = await createChallenge(request.server.db, request.params.id, request.body);
    request.log.info(
      { status: 'Success' },
      `Challenge ${challenge.id} "${challenge.title}" added to game ${request.params.id}`,
    );
    return challenge;
  },

  async editGetGameChallenges(request) {
    return getChallenges(request.server.db, request.params.id);
  },

  async editUpdateGameChallengesAcceptedCount(request, reply) {
    await updateAcceptedCounts(request.server.db, request.params.id);
    request.log.info({ status: 'Success' }, `Accepted counts of game ${request.params.id} recomputed`);
    return sendEmpty(reply);
  },

  async editGetGameChallenge(request) {
    return getChallenge(request.server.db, request.params.id, request.params.cId);
  },

  async editUpdateGameChallenge(request) {
    const { id, cId } = request.params;
    const challenge = await editChallenge(request.server.db, id, cId, request.body);
    request.log.info({ status: 'Success' }, `Challenge ${cId} "${challenge.title}" of game ${id} updated`);
    return challenge;
  },

  async editDeleteGameChallenge(request, reply) {
    const { id, cId } = request.params;
    await deleteChallenge(request.server.db, request.server.env.dataDir, id, cId);
    request.log.info({ status: 'Success' }, `Challenge ${cId} of game ${id} deleted`);
    return sendEmpty(reply);
  },

  async editUpdateAttachment(request, reply) {
    const { id, cId } = request.params;
    await setAttachment(request.server.db, request.server.env.dataDir, id, cId, request.body);
    request.log.info({ status: 'Success' }, `Attachment of challenge ${cId} of game ${id} updated`);
    return sendEmpty(reply);
  },

  async editAddFlags(request, reply) {
    const { id, cId } = request.params;
    await addFlags(request.server.db, id, cId, request.body);
    request.log.info({ status: 'Success' }, `${request.body.length} flag(s) added to challenge ${cId} of game ${id}`);
    return sendEmpty(reply);
  },

  async editRemoveFlag(request, reply) {
    const { id, cId, fId } = request.params;
    const status = await removeFlag(request.server.db, request.server.env.dataDir, id, cId, fId);
    if (status === 'Success') request.log.info({ status }, `Flag ${fId} of challenge ${cId} of game ${id} removed`);
    return sendJsonString(reply, status);
  },
};
