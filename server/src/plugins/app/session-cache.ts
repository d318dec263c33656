import { EventEmitter } from 'node:events';
import type { SessionRecord } from '../../modules/accounts';

/**
 * What the repositories announce when a write changes what a session lookup returns: a user's name,
 * e-mail, role or password (which signs them out), the user's deletion, or one session's end or new
 * expiry. The auth plugin drops its cached lookups at once and tells the other instances (signals).
 * Announced from the repositories, not the services, so no write path can forget it; an announcement
 * made inside a transaction comes before the commit, which `SessionCache.forget*` allows for.
 */
export const sessionChanges = new EventEmitter<{ user: [userId: string]; session: [sessionId: string] }>();

/**
 * How long a session lookup is served from memory. Every change is announced (`sessionChanges`, and
 * a signal to the other instances), and an instance whose signal subscription broke drops every
 * entry when it hears the channel again (`clear`, auth.ts), so this bounds only a change whose
 * announcement its sender failed to publish (GZCTF's cookie sessions recheck the user every 30
 * minutes). A player's page polls every 10 s: at 15 s every second round of a session's polls read
 * the database, about 600 lookups a second at an event of 4,000 teams of three; at a minute, about
 * 200. At 3 s most polls had missed.
 */
export const SESSION_CACHE_MS = 60_000;
/**
 * Each entry lives between three quarters of SESSION_CACHE_MS and all of it, at random. With one
 * lifetime for all, sessions cached together (every player opening the game at its start, every
 * team's first request in the game bench) expired together and were read again together, and so
 * stayed in step: a burst of lookups every lifetime for the whole event instead of a steady trickle.
 */
const SPREAD = 0.25;
/**
 * After an announcement, lookups of that user or session are not cached for this long, so a lookup
 * that read the database before the announcing transaction committed cannot cache the old answer.
 */
const UNCACHEABLE_MS = 10_000;
const MAX_ENTRIES = 50_000;

/**
 * Session lookups (session id → session and user) kept for up to a minute, so most authenticated
 * requests need no database round trip. Never caches a miss.
 */
export class SessionCache {
  private readonly entries = new Map<string, { record: SessionRecord; until: number }>();
  private readonly userBlocked = new Map<string, number>();
  private readonly sessionBlocked = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  get(sessionId: string): SessionRecord | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.record;
    this.entries.delete(sessionId);
    return undefined;
  }

  set(record: SessionRecord): void {
    const now = this.now();
    if ((this.userBlocked.get(record.user.id) ?? 0) > now) return;
    if ((this.sessionBlocked.get(record.id) ?? 0) > now) return;
    // A map keeps insertion order, so the oldest entry goes first when full.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(record.id, { record, until: now + SESSION_CACHE_MS * (1 - SPREAD * this.random()) });
  }

  forgetUser(userId: string): void {
    this.userBlocked.set(userId, this.now() + UNCACHEABLE_MS);
    for (const [id, entry] of this.entries) if (entry.record.user.id === userId) this.entries.delete(id);
  }

  forgetSession(sessionId: string): void {
    this.sessionBlocked.set(sessionId, this.now() + UNCACHEABLE_MS);
    this.entries.delete(sessionId);
  }

  /**
   * Drops every cached lookup (not the blocks after announcements): announcements may have been
   * missed, as while this instance's signal subscription was broken.
   */
  clear(): void {
    this.entries.clear();
  }

  /** Drops what has expired (called every few seconds). */
  sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.until <= now) this.entries.delete(id);
    for (const blocked of [this.userBlocked, this.sessionBlocked]) {
      for (const [id, until] of blocked) if (until <= now) blocked.delete(id);
    }
  }
}
