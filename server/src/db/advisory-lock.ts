import type { PGlite } from '@electric-sql/pglite';
import { Client, Pool } from 'pg';
import type { Db } from './client';

/** A session-level advisory lock held on its own connection. */
export interface HeldLock {
  /** Resolves if the connection (and with it the lock) is lost. */
  lost: Promise<void>;
  /** Unlocks and closes its connection; harmless after a loss. */
  release(): Promise<void>;
}

/**
 * Takes PostgreSQL's advisory lock `key` (scoped to the database) on a connection of its own, held
 * until `release()` or until that connection dies, when PostgreSQL releases it for the next taker.
 * Undefined when another session holds it. PGlite is one process's private database: the lock is
 * always free there.
 */
export async function tryHoldAdvisoryLock(db: Db, key: number): Promise<HeldLock | undefined> {
  const pool = (db as unknown as { $client: Pool | PGlite }).$client;
  if (!(pool instanceof Pool)) {
    return { lost: new Promise<void>(() => {}), release: async () => {} };
  }
  // A connection of its own, outside the pool: holding the lock must not cost the queries a connection.
  const connection = new Client(pool.options);
  let markLost = () => {};
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  // Without a listener a dropped connection's error would crash the process.
  connection.on('error', () => markLost());
  connection.on('end', () => markLost());
  try {
    await connection.connect();
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
    async release() {
      if (released) return;
      released = true;
      // Ending the session frees the lock; the explicit unlock only makes that visible at once.
      await connection.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
      await connection.end().catch(() => undefined);
    },
  };
}
