import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Client } from 'pg';
import { openDatabase, type DatabaseHandle, type Db } from '../../../server/src/db/client';
import { migrationsDigest, newIdentity } from './pglite-image';
import { borrowPglite } from './pglite-pool';

export interface Engine {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database; `close()` disposes of it. */
  open(): Promise<DatabaseHandle>;
}

/**
 * The engines a database test runs on: PGlite always, PostgreSQL too when DATABASE_URL is set.
 * PGlite databases are lent from the process's emptied ones (./pglite-pool.ts); each still holds
 * ~850 MB, so open one per describe block, not per test.
 */
export function engines(): Engine[] {
  const list: Engine[] = [{ name: 'pglite', open: () => borrowPglite() }];
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

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

// Any fixed key: test processes building the template take turns.
const TEMPLATE_LOCK_KEY = 0x74706c74;
let template: Promise<string> | undefined;

/**
 * A migrated, empty database on DATABASE_URL's server to copy scratch databases from, made once per
 * set of migrations: a copy took a quarter to a third of the time of creating one and migrating it
 * here. Built under another name and renamed, since a database someone is connected to cannot be
 * copied.
 */
function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= withAdmin(serverUrl, async (admin) => {
    const name = `ctf_template_${migrationsDigest()}`;
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rows.length > 0) return name;
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const handle = await openDatabase({ databaseUrl: databaseUrl(serverUrl, building) });
      await handle.close();
      await admin.query(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
  return template;
}

/**
 * A uniquely named database on DATABASE_URL's server with the schema and no rows (for servers the
 * test starts itself too: their own migration run finds nothing to do), or with no schema at all
 * when `unmigrated` (a test of the migration itself).
 */
export async function createScratchDatabase(
  serverUrl: string,
  options: { unmigrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const from = options.unmigrated ? undefined : await migratedTemplate(serverUrl);
  await withAdmin(serverUrl, (admin) => admin.query(`create database ${name}${from ? ` template ${from}` : ''}`));
  const url = databaseUrl(serverUrl, name);
  if (from) await withAdmin(url, (copy) => newIdentity(drizzle(copy)));
  return {
    url,
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

/**
 * How many sessions of this database wait for a lock now (PostgreSQL): a race test holds a lock and
 * waits for the request under test to queue behind it before letting go.
 */
export async function lockWaiters(db: Db): Promise<number> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return result.rows[0]!.n;
}
