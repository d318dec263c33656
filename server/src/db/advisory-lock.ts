import type { PGlite } from '@electric-sql/pglite';
import { Client, Pool } from 'pg';
import type { Db } from './client';

/** A session-level advisory lock held on its own connection. */
export interface HeldLock {
  /** Resolves if the connection (and with it the lock) is lost. */
  lost: Promise<void>;
  /**
   * Asks the server whether the session is still there. A connection that does not answer in time
   * is ended and counts as lost (`lost` resolves): after a partition the server frees the lock in
   * seconds (the session's keepalives), and this end must not go on as if it still held it.
   */
  verify(): Promise<void>;
  /** Unlocks and closes its connection; harmless after a loss. */
  release(): Promise<void>;
}

/**
 * How the lock's session finds a vanished peer. By default PostgreSQL leaves keepalives to the OS:
 * a session whose client's host died (no FIN, no RST) was found dead after 2 h 11 min, and kept its
 * lock that long. With these it is found dead after 10 s of silence and 3 unanswered probes 5 s
 * apart; `tcp_user_timeout` does the same for an answer of the server's that is never acknowledged,
 * which keepalives do not cover. All four may be set by any user (none applies over a Unix socket).
 */
const SESSION_SETTINGS = [
  'set tcp_keepalives_idle = 10',
  'set tcp_keepalives_interval = 5',
  'set tcp_keepalives_count = 3',
  'set tcp_user_timeout = 25000',
].join('; ');
/**
 * Bounds on this end: connecting, and each statement, including `verify()`'s. Without them a try
 * across a partition waited on its socket for good, and with it the election.
 */
const CONNECT_TIMEOUT_MS = 10_000;
const QUERY_TIMEOUT_MS = 5_000;

/**
 * A connection of its own for a session lock (outside the pool: holding the lock must not cost the
 * queries a connection), set up so that either end notices the other vanishing within seconds.
 * Undefined on PGlite, which has no sessions to lose.
 */
export async function connectLockSession(db: Db): Promise<Client | undefined> {
  const pool = (db as unknown as { $client: Pool | PGlite }).$client;
  if (!(pool instanceof Pool)) return undefined;
  const connection = new Client({
    ...pool.options,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  // Without a listener a dropped connection's error would crash the process.
  connection.on('error', () => undefined);
  try {
    await connection.connect();
    await connection.query(SESSION_SETTINGS);
  } catch (error) {
    await connection.end().catch(() => undefined);
    throw error;
  }
  return connection;
}

/**
 * Takes PostgreSQL's advisory lock `key` (scoped to the database) on a connection of its own, held
 * until `release()` or until that connection dies, when PostgreSQL releases it for the next taker.
 * Undefined when another session holds it. PGlite is one process's private database: the lock is
 * always free there.
 */
export async function tryHoldAdvisoryLock(db: Db, key: number): Promise<HeldLock | undefined> {
  const connection = await connectLockSession(db);
  if (!connection) {
    return { lost: new Promise<void>(() => {}), verify: async () => {}, release: async () => {} };
  }
  let markLost = () => {};
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  connection.on('error', () => markLost());
  connection.on('end', () => markLost());
  try {
    const { rows } = await connection.query<{ held: boolean }>('select pg_try_advisory_lock($1) as held', [key]);
    if (!rows[0]?.held) {
      await connection.end();
      return undefined;
    }
  } catch (error) {
    await connection.end().catch(() => undefined);
    throw error;
  }
  let released = false;
  return {
    lost,
    async verify() {
      try {
        await connection.query('select 1');
      } catch {
        markLost();
        // With the unanswered statement still active, `end()` destroys the socket rather than wait on it.
        await connection.end().catch(() => undefined);
      }
    },
    async release() {
      if (released) return;
      released = true;
      // Ending the session frees the lock; the explicit unlock only makes that visible at once.
      await connection.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
      await connection.end().catch(() => undefined);
    },
  };
}
