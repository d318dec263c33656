import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Cache } from './cache';
import type { Db } from '../../db/client';
import { editEvents } from '../../modules/edit/edit.events';
import { gameBus } from '../../modules/game/game.events';
import { findGame } from '../../modules/game/game.repository';
import { computeScoreboard, type ScoreboardModel } from '../../modules/game/scoreboard';

declare module 'fastify' {
  interface FastifyInstance {
    scoreboards: ScoreboardCache;
  }
}

export type ScoreboardView = 'live' | 'frozen';
const TTL_MS = 14 * 24 * 3_600_000;
const key = (gameId: number, view: ScoreboardView) => `_ScoreBoard_${gameId}${view === 'frozen' ? '_Frozen' : ''}`;

/**
 * Scoreboards are computed off the request path and kept in the shared cache (Redis when set) as
 * JSON, in two views: live (admins, monitors) and frozen (everyone else, when the game has a freeze
 * time). Reads are read-through: a miss generates once (concurrent readers share that promise).
 * `refresh()` is a regeneration request, not a delete, so readers keep the previous board while the
 * new one is computed; requests arriving during a run are coalesced into exactly one more run.
 */
export class ScoreboardCache {
  private readonly running = new Map<number, Promise<void>>();
  private readonly dirty = new Set<number>();
  // Start times seen by the last generation, so a cached read needs no database query.
  private readonly starts = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly cache: Cache,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** The board as JSON text, or undefined when the game does not exist. */
  async get(gameId: number, view: ScoreboardView): Promise<string | undefined> {
    // A shared cache can outlive the database it was built from (a reset, a restore), so each
    // process regenerates a game's board once before trusting what it finds there.
    if (this.starts.has(gameId)) {
      const cached = await this.cache.get(key(gameId, view));
      if (cached !== undefined) return cached;
    }
    await this.generate(gameId);
    return this.cache.get(key(gameId, view));
  }

  /** The game's start time as of this process's last generation (undefined: ask the database). */
  startOf(gameId: number): number | undefined {
    return this.starts.get(gameId);
  }

  refresh(gameId: number): void {
    if (this.running.has(gameId)) {
      this.dirty.add(gameId);
      return;
    }
    this.generate(gameId).catch(this.onError);
  }

  /** Resolves when no regeneration is running or pending. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private generate(gameId: number): Promise<void> {
    const existing = this.running.get(gameId);
    if (existing) return existing;
    const run = (async () => {
      try {
        do {
          this.dirty.delete(gameId);
          await this.write(gameId);
        } while (this.dirty.has(gameId));
      } finally {
        this.running.delete(gameId);
      }
    })();
    this.running.set(gameId, run);
    return run;
  }

  private async write(gameId: number): Promise<void> {
    const game = await findGame(this.db, gameId);
    if (!game) {
      this.starts.delete(gameId);
      await this.cache.delete(key(gameId, 'live'));
      await this.cache.delete(key(gameId, 'frozen'));
      return;
    }
    this.starts.set(gameId, game.startAt.getTime());
    const live: ScoreboardModel = await computeScoreboard(this.db, game);
    await this.cache.set(key(gameId, 'live'), JSON.stringify(live), TTL_MS);
    const frozen = game.freezeAt ? await computeScoreboard(this.db, game, game.freezeAt) : live;
    await this.cache.set(key(gameId, 'frozen'), JSON.stringify(frozen), TTL_MS);
  }
}

async function scoreboardCache(app: FastifyInstance) {
  const scoreboards = new ScoreboardCache(app.db, app.cache, (error) =>
    app.log.error({ err: error }, 'scoreboard generation failed'),
  );
  app.decorate('scoreboards', scoreboards);
  const onChange = ({ gameId }: { gameId: number }) => scoreboards.refresh(gameId);
  editEvents.on('scoreboardChanged', onChange);
  gameBus.on('scoreboardChanged', onChange);
  app.addHook('onClose', async () => {
    editEvents.off('scoreboardChanged', onChange);
    gameBus.off('scoreboardChanged', onChange);
    await scoreboards.idle();
  });
}

export default fp(scoreboardCache, { name: 'scoreboard-cache', dependencies: ['cache'] });
