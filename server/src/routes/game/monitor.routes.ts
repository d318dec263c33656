import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Handlers } from '../../contract/handlers';
import { attachmentDisposition } from '../../lib/content-types';
import { readChoice, readPage, readRawParam, readSearch, sendPage } from '../../lib/paging';
import { gameOrNotFound } from '../../modules/games';
import { eventList } from '../../modules/notices';
import { PARTICIPATION_STATUSES, participationList } from '../../modules/participations';
import {
  exportSheet,
  scoreboardJson,
  sheetLabelTexts,
  sheetTimestamp,
  SUBMISSION_BATCH,
} from '../../modules/scoreboard';
import { cheatInfoList, submissionList } from '../../modules/submissions';

/** The monitor's views of a game: events, submissions, cheat records, participations and the two sheets. */
export const gameMonitorHandlers: Handlers = {
  async gameScoreboardSheet(request, reply) {
    const game = await gameOrNotFound(request.server.db, request.params.id);
    const boardJson = await scoreboardJson(request.server, game.id, request.user);
    const labels = sheetLabelTexts((key) => request.t(key));
    const sheet = exportSheet({ kind: 'scoreboard', labels, boardJson });
    return sendSheet(reply, `${game.title}-Scoreboard-${Math.floor(Date.now() / 1000)}.xlsx`, sheet);
  },
  async gameSubmissionSheet(request, reply) {
    const { server } = request;
    const game = await gameOrNotFound(server.db, request.params.id);
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
  async gameEvents(request, reply) {
    const { rows, total } = await eventList(request.server.db, request.params.id, request.query);
    return sendPage(reply, rows, total);
  },
  async gameSubmissions(request, reply) {
    const { rows, total } = await submissionList(request.server.db, request.params.id, request.query);
    return sendPage(reply, rows, total);
  },
  async gameCheatInfo(request, reply) {
    const { rows, total } = await cheatInfoList(request.server.db, request.params.id, request.query);
    return sendPage(reply, rows, total);
  },
  async gameParticipations(request, reply) {
    // Unpaged without count/skip, as GZCTF's own client expects; the total header is there either way.
    const { items, total } = await participationList(request.server.db, request.params.id, {
      page: readPage(request, { maxCount: 500 }),
      status: readChoice(request, 'status', PARTICIPATION_STATUSES),
      division: readRawParam(request, 'division') || undefined,
      search: readSearch(request),
    });
    return sendPage(reply, items, total);
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
