import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Handlers } from '../../contract/handlers';
import { decryptApiField } from '../../lib/api-encryption';
import { sendEmpty, sendJsonString } from '../../lib/reply';
import { readChoice, readPage, readRawParam, readSearch, sendPage } from '../../lib/paging';
import { requireUser } from '../../plugins/app/auth';
import { sendScoreboard } from '../../plugins/app/scoreboard-cache';
import { releaseFiles } from '../attachments';
import * as service from './game.service';
import * as joining from './join.service';
import * as monitor from './monitor.service';
import { getWriteup, MAX_WRITEUP_BYTES, submitWriteup } from './writeup.service';
import { readUploads } from '../../lib/uploads';
import { sheetLabelTexts, sheetTimestamp } from './sheets';
import { exportSheet, SUBMISSION_BATCH } from './sheet-export';
import { attachmentDisposition } from '../../lib/content-types';

/** The player, monitor and admin game views (reference §2.5) except containers and traffic. */
export const gameHandlers: Handlers = {
  async gameGames(request) {
    return service.listGames(request.server.db, request.query);
  },
  async gameRecentGames(request) {
    return service.recentGames(request.server.db, request.query.limit);
  },
  async gameGame(request) {
    return service.gameInfo(request.server.db, request.params.id, request.user);
  },
  async gameJoinGame(request, reply) {
    const user = requireUser(request);
    await joining.joinGame(request.server, request.params.id, user, request.body);
    request.log.info(
      { status: 'Success' },
      `${user.userName} joined game ${request.params.id} with team ${request.body.teamId}`,
    );
    return sendEmpty(reply);
  },
  async gameLeaveGame(request, reply) {
    const user = requireUser(request);
    const db = request.server.db;
    const writeup = await joining.leaveGame(db, request.params.id, user);
    if (writeup) await releaseFiles(db, request.server.env.dataDir, [writeup]);
    return sendEmpty(reply);
  },
  async gameDetails(request) {
    return service.details(request.server, request.params.id, requireUser(request));
  },
  async gameScoreboard(request, reply) {
    // The cached text as is (no parse, no response serialisation), with the ETag and the compressed
    // copies made once per board.
    const board = await service.scoreboardEntry(request.server, request.params.id, request.user);
    return sendScoreboard(request, reply, board);
  },
  async gameScoreboardSheet(request, reply) {
    const game = await service.requireGame(request.server.db, request.params.id);
    const boardJson = await service.scoreboardJson(request.server, game.id, request.user);
    const labels = sheetLabelTexts((key) => request.t(key));
    const sheet = exportSheet({ kind: 'scoreboard', labels, boardJson });
    return sendSheet(reply, `${game.title}-Scoreboard-${Math.floor(Date.now() / 1000)}.xlsx`, sheet);
  },
  async gameSubmissionSheet(request, reply) {
    const { server } = request;
    const game = await service.requireGame(server.db, request.params.id);
    const labels = sheetLabelTexts((key) => request.t(key));
    const sheet = exportSheet(
      {
        kind: 'submissions',
        labels,
        gameId: game.id,
        databaseUrl: server.env.databaseUrl,
        batchSize: SUBMISSION_BATCH,
      },
      server.db,
    );
    return sendSheet(reply, `${game.title}_Submissions_${sheetTimestamp(new Date())}.xlsx`, sheet);
  },
  async gameNotices(request) {
    return service.notices(request.server.db, request.params.id, request.query);
  },
  async gameEvents(request, reply) {
    const { rows, total } = await monitor.events(request.server.db, request.params.id, request.query);
    return sendPage(reply, rows, total);
  },
  async gameSubmissions(request, reply) {
    const { rows, total } = await monitor.submissionList(request.server.db, request.params.id, request.query);
    return sendPage(reply, rows, total);
  },
  async gameCheatInfo(request, reply) {
    const { rows, total } = await monitor.cheatInfoList(request.server.db, request.params.id, request.query);
    return sendPage(reply, rows, total);
  },
  async gameParticipations(request, reply) {
    // Unpaged without count/skip, as GZCTF's own client expects; the total header is there either way.
    const { items, total } = await monitor.participationList(request.server.db, request.params.id, {
      page: readPage(request, { maxCount: 500 }),
      status: readChoice(request, 'status', monitor.PARTICIPATION_STATUSES),
      division: readRawParam(request, 'division') || undefined,
      search: readSearch(request),
    });
    return sendPage(reply, items, total);
  },
  async gameGetWriteup(request) {
    return getWriteup(request.server.db, request.params.id, requireUser(request));
  },
  async gameSubmitWriteup(request, reply) {
    const user = requireUser(request);
    const [upload] = await readUploads(request, {
      fields: ['file'],
      maxBytes: MAX_WRITEUP_BYTES,
      tooLargeKey: 'game.writeupInvalid',
    });
    await submitWriteup(request.server.db, request.server.env.dataDir, request.params.id, user, upload);
    return sendEmpty(reply);
  },
  async gameGetChallenge(request) {
    const { id, challengeId } = request.params;
    return service.challengeDetail(request.server, id, challengeId, requireUser(request));
  },
  async gameSubmit(request) {
    const { id, challengeId } = request.params;
    const { globalConfig } = await request.server.settings.get();
    const flag = decryptApiField(globalConfig, request.body.flag, request.server.env.xorKey);
    return service.submitFlag(request.server, id, challengeId, requireUser(request), flag);
  },
  async gameStatus(request, reply) {
    const { id, challengeId, submitId } = request.params;
    const status = await service.submissionStatus(request.server.db, id, challengeId, submitId, requireUser(request));
    return sendJsonString(reply, status);
  },
  // Beyond GZCTF: the CTFtime feed (players' view, so a freeze holds) and the Admin-set freeze.
  async beyondCtftimeFeed(request) {
    return service.ctftimeFeed(request.server, request.params.id);
  },
  async beyondGetGameFreeze(request) {
    return service.getFreeze(request.server.db, request.params.id);
  },
  async beyondSetGameFreeze(request, reply) {
    await service.setFreeze(request.server.db, request.params.id, request.body.freezeAt ?? null);
    return sendEmpty(reply);
  },
};

/** The workbook streams out as the worker writes it: no Content-Length, the client counts bytes. */
function sendSheet(reply: FastifyReply, fileName: string, sheet: Readable): FastifyReply {
  // A sheet cut short (the client left, the worker failed) cannot be finished as a valid file: the
  // connection goes with it, or the unfinished response would keep it open forever.
  sheet.once('close', () => {
    if (!sheet.readableEnded) reply.raw.destroy();
  });
  return reply
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', attachmentDisposition(fileName))
    .header('cache-control', 'no-store')
    .send(sheet);
}
