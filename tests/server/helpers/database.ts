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
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ databaseUrl: url.toString() });
  } catch (error) {
    await withAdmin(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    throw error;
  }
  return {
    ...handle,
    async close() {
      await handle.close();
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
