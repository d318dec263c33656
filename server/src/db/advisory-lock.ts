import type { PGlite } from '@electric-sql/pglite';
import { Pool } from 'pg';
import type { Db } from './client';

/** A session-level advisory lock held on its own connection. */
export interface HeldLock {
  /** Resolves if the connection (and with it the lock) is lost. */
  lost: Promise<void>;
  /** Unlocks and gives the connection back; harmless after a loss. */
  release(): Promise<void>;
}

/**
 * Takes PostgreSQL's advisory lock `key` (scoped to the database) on a connection of its own, held
 * until `release()` or until that connection dies, when PostgreSQL releases it for the next taker.
 * Undefined when another session holds it. PGlite is one process's private database: the lock is
 * always free there.
 */
export async function tryHoldAdvisoryLock(db: Db, key: number): Promise<HeldLock | undefined> {
  const client = (db as unknown as { $client: Pool | PGlite }).$client;
  if (!(client instanceof Pool)) {
    return { lost: new Promise<void>(() => {}), release: async () => {} };
  }
  const connection = await client.connect();
  let gone = false;
  let markLost = () => {};
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  const onGone = () => {
    gone = true;
    markLost();
  };
  // Without a listener a dropped connection's error would crash the process.
  connection.on('error', onGone);
  connection.on('end', onGone);
  try {
    const { rows } = await connection.query<{ held: boolean }>('select pg_try_advisory_lock($1) as held', [key]);
    if (!rows[0]?.held) {
      connection.off('error', onGone);
      connection.off('end', onGone);
      connection.release();
      return undefined;
    }
  } catch (error) {
    connection.release(true);
    throw error;
  }
  let released = false;
  return {
    lost,
    async release() {
      if (released) return;
      released = true;
      connection.off('end', onGone);
      if (gone) {
        connection.release(true);
        return;
      }
      try {
        await connection.query('select pg_advisory_unlock($1)', [key]);
        connection.off('error', onGone);
        connection.release();
      } catch {
        // Ending the connection frees the lock just the same.
        connection.release(true);
      }
    },
  };
}
