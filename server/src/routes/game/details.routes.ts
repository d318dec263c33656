import type { Handlers } from '../../contract/handlers';
import { cachedJsonBody, cachedJsonOf } from '../../lib/cached-json';
import { sendEmpty } from '../../lib/reply';
import { requireUser } from '../../plugins/app/auth';
import { browseGames, getFreeze, recentGames, setFreeze } from '../../modules/games';
import { isDefaultNoticePage, playerNotices } from '../../modules/notices';
import { gameInfo } from '../../modules/participations';
import { ctftimeFeed, details, detailsBody, scoreboardBody, scoreboardEntry } from '../../modules/scoreboard';

/** The player's game views (reference §2.5): lists, the game page, details, scoreboard, notices. */
export const gameDetailsHandlers: Handlers = {
  async gameGames(request) {
    return browseGames(request.server.db, request.query);
  },
  async gameRecentGames(request) {
    return recentGames(request.server.db, request.query.limit);
  },
  async gameGame(request) {
    return gameInfo(request.server.db, request.params.id, request.user);
  },
  async gameDetails(request, reply) {
    // Assembled as text from the board's shared parts, with its own ETag and gzip (no serialisation).
    const answer = await details(request.server, request.params.id, requireUser(request));
    return detailsBody(request, reply, answer);
  },
  async gameScoreboard(request, reply) {
    // The cached text as is (no parse, no response serialisation), with the ETag and the compressed
    // copies made once per board.
    const board = await scoreboardEntry(request.server, request.params.id, request.user);
    return scoreboardBody(request, reply, board);
  },
  async gameNotices(request, reply) {
    // What every page polls (the default page) is the cached list; another page is read as asked.
    const { id } = request.params;
    const list = isDefaultNoticePage(request.query)
      ? await request.server.noticeLists.get(id)
      : cachedJsonOf(JSON.stringify(await playerNotices(request.server.db, id, request.query)));
    return cachedJsonBody(request, reply, list, 'private');
  },
  // Beyond GZCTF: the CTFtime feed (players' view, so a freeze holds) and the Admin-set freeze.
  async beyondCtftimeFeed(request) {
    return ctftimeFeed(request.server, request.params.id);
  },
  async beyondGetGameFreeze(request) {
    return getFreeze(request.server.db, request.params.id);
  },
  async beyondSetGameFreeze(request, reply) {
    await setFreeze(request.server.db, request.params.id, request.body.freezeAt ?? null);
    return sendEmpty(reply);
  },
};
