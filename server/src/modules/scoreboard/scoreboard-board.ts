import type { CachedJson } from '../../lib/cached-json';
import type { SolveSnapshot } from './scoreboard';

export type ScoreboardView = 'live' | 'frozen';

/** A board as served: the JSON text, its UTF-8 bytes and its ETag, computed once per board rather than per request. */
export type ScoreboardEntry = CachedJson;

/** In-process copy of one view's board; `checked`: when it was last known to match the shared cache. */
interface BoardCopy {
  entry: ScoreboardEntry;
  checked: number;
}

/**
 * Everything this process knows about one game's board, in one place. Its life cycle:
 *
 * - **unknown** (no `startAt`): nothing generated here yet; a read generates before trusting the
 *   shared cache (which can outlive the database it was built from: a reset, a restore).
 * - **idle** (`run` unset): `refresh()` starts a run at once after a quiet spell, or after what is
 *   left of the pause since `last` finished; `urgent` (an admin's change) never waits.
 * - **pausing** (`run` set, `pause` set): the run waits; `pause.end()` ends the wait now (urgent,
 *   idle(), a reader with no board) and `pause.until()` moves its end (settle() on judge drain).
 * - **building** (`run` set, no `pause`): `refresh()` only marks it `dirty` and `settle()` marks it
 *   `settled` and `quiet` (`resumed()` clears `quiet`); when the build ends, `last` records it, and a
 *   dirty board goes round again (pausing first unless urgent, only as long as the build took when
 *   settled, and not at all when still quiet); else idle.
 * - A run that fails is tried again later (`retry`, after `failures` in a row: scoreboard-cache.ts).
 * - A game that is gone drops its copies and `startAt`/`last` and is forgotten once idle.
 *
 * Apart from that life cycle, `copies` serves reads without a shared-cache round trip: a copy
 * younger than CHECK_MS (scoreboard-cache.ts) is served as it is; older, it is served while
 * `checks` (one per view, shared by concurrent readers) compares its ETag with the shared version
 * key; older than STALE_MS, the reader waits for that check. Only `ScoreboardCache` changes these
 * fields.
 */
export class GameBoard {
  run: Promise<void> | undefined;
  dirty = false;
  urgent = false;
  /** The judge emptied its queue during the running build: the pause after it is cut short. */
  settled = false;
  /**
   * Since it settled, no submission has come in (`resumed()` clears it): the burst is over, so the
   * build after this one starts at once rather than after a pause as long as this one.
   */
  quiet = false;
  /** The last generation: when it finished, how long it took and the pause after it. */
  last: { at: number; took: number; pause: number } | undefined;
  pause: { end: () => void; until: (at: number) => void } | undefined;
  /** Regenerations failed in a row, and the retry waiting for its time (scoreboard-cache.ts). */
  failures = 0;
  retry: NodeJS.Timeout | undefined;
  /** The start time the last generation saw, so a cached read needs no database query. */
  startAt: number | undefined;
  copies: Partial<Record<ScoreboardView, BoardCopy>> = {};
  /**
   * The solves this process last built from, so its next build reads only newer ones
   * (`loadScoreboardRows`), unless `readAllSolves` (set by an admin's change) asks for all of them.
   */
  solves: SolveSnapshot | undefined;
  readAllSolves = false;
  checks: Partial<Record<ScoreboardView, Promise<void>>> = {};

  /** Enters the pausing state for `ms`: resolves when the pause ends, however it ends. */
  waitFor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const end = () => {
        clearTimeout(timer);
        this.pause = undefined;
        resolve();
      };
      const until = (at: number) => {
        clearTimeout(timer);
        timer = setTimeout(end, Math.max(0, at - Date.now()));
      };
      timer = setTimeout(end, ms);
      this.pause = { end, until };
    });
  }
}
