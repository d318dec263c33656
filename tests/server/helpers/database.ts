import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type DatabaseHandle } from '../../../server/src/db/client';

export interface Engine {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database; `close()` disposes of it. */
  open(): Promise<DatabaseHandle>;
}

/**
 * The engines a database test runs on: PGlite always, PostgreSQL too when DATABASE_URL is set.
 * Each PGlite costs ~3 s and ~850 MB to start, so open one per describe block, not per test.
 */
export function engines(): Engine[] {
  const list: Engine[] = [{ name: 'pglite', open: () => openDatabase({}) }];
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) list.push({ name: 'postgres', open: () => openScratchPostgres(serverUrl) });
  return list;
}

// Creates a uniquely named database on DATABASE_URL's server so parallel test files never share
// state, and drops it (closing any stray connections) on close.
async function openScratchPostgres(serverUrl: string): Promise<DatabaseHandle> {
  const scratch = await createScratchDatabase(serverUrl);
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ databaseUrl: scratch.url });
  } catch (error) {
    await scratch.drop();
    throw error;
  }
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}

/** An empty, uniquely named database on DATABASE_URL's server (for servers the test starts itself). */
export async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withAdmin(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdmin<T>(serverUrl: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
