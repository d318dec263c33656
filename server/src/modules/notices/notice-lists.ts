import type { Db } from '../../db/client';
import { cachedJsonOf, type CachedJson } from '../../lib/cached-json';
import { playerNotices } from './notices.service';

/**
 * How long a game's notice list is served from memory. Every player's page polls it every 10 s
 * (the client's REFRESH_INTERVAL_MS, as GZCTF's), so an event of 4,000 teams asks for it about a
 * thousand times a second; read and serialised for each, a game's 250 notices held the answers to
 * 670–970 a second at 1,000 teams (issue 15). A change made here drops the list at once; one made
 * on another instance shows within this time (new notices reach the pages at once over the hub).
 */
export const NOTICE_LIST_MS = 1000;

/**
 * The players' notice list of each game, as sent for the default page (what the clients poll:
 * `isDefaultNoticePage`), read at most once per NOTICE_LIST_MS and compressed once per list
 * (`cachedJsonBody`). A game that does not exist or has not started is never kept: each request
 * gets its error from a fresh read.
 */
export class NoticeLists {
  private readonly lists = new Map<number, { answer: Promise<CachedJson>; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  get(gameId: number): Promise<CachedJson> {
    const known = this.lists.get(gameId);
    if (known && known.until > this.now()) return known.answer;
    const answer = playerNotices(this.db, gameId, {}).then((list) => cachedJsonOf(JSON.stringify(list)));
    const entry = { answer, until: this.now() + NOTICE_LIST_MS };
    this.lists.set(gameId, entry);
    answer.catch(() => {
      if (this.lists.get(gameId) === entry) this.lists.delete(gameId);
    });
    return answer;
  }

  /**
   * Drops a game's list after a change: the next request reads it again. A read already under way
   * may have missed the change; it is dropped with the rest, so only requests that joined it get it.
   */
  forget(gameId: number): void {
    this.lists.delete(gameId);
  }
}
