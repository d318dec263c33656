import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT, PgTransactionConfig } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { Client, Pool, type PoolClient } from 'pg';
import * as schema from './schema';

/**
 * What both drivers' raw results share: `rows`. Row counts differ (pg `rowCount`, PGlite
 * `affectedRows`), so a repository that needs to know what it changed uses `.returning()`.
 */
export interface QueryResultHKT extends PgQueryResultHKT {
  type: QueryRows<this['row']>;
}
interface QueryRows<TRow> {
  rows: TRow[];
}

/** One type for both drivers: repositories never need to know which engine they run on. */
type Drizzle = PgDatabase<QueryResultHKT, typeof schema>;

/**
 * What runs queries: the open database or a transaction's `tx`, as repositories take it. It opens no
 * transaction, so code that opens one (taking a `Database`) cannot be called from inside another:
 * handed the outer `db` instead, it would wait forever on PGlite (one connection, held by the outer
 * transaction) and run outside the outer transaction's atomicity on PostgreSQL.
 */
export type Db = Omit<Drizzle, 'transaction'>;

/**
 * The open database: a `Db` that can also open a transaction. Only the code that opens one takes it
 * (and its callers, down from `app.db`); inside, `tx` is a plain `Db`.
 */
export interface Database extends Db {
  transaction<T>(run: (tx: Db) => Promise<T>, config?: PgTransactionConfig): Promise<T>;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string. Without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory. Without it (and without databaseUrl) the database lives in memory. */
  dataDir?: string;
  /**
   * A PGlite data directory as `dumpDataDir` wrote it, to start from instead of an empty one (used
   * only where the directory is new): skips initdb and the migrations already in the image.
   */
  pgliteImage?: Blob;
  /** Errors of idle pooled connections (PostgreSQL restarts, network drops). Default: ignored. */
  onPoolError?: (error: Error) => void;
}

// The same SQL files serve both engines; drizzle-kit writes them next to this file.
const migrationsFolder = path.join(__dirname, 'migrations');

// Any fixed key works; it only has to be the same for every server instance.
const MIGRATION_LOCK_KEY = 0x475a4354;

/**
 * Opens the database and brings its schema up to date.
 *
 * PGlite is one connection inside this process: statements and transactions are serialised, which is
 * plenty at CTF scale but means that inside `db.transaction(tx => ...)` every query must go through
 * `tx`; a query on `db` there waits for the transaction to finish, i.e. forever. The `Db` type keeps a
 * `tx` from opening a transaction of its own; lint catches the outer `db` used inside the callback.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onPoolError);
  return openPglite(options.dataDir, options.pgliteImage);
}

async function openPglite(dataDir: string | undefined, image: Blob | undefined): Promise<DatabaseHandle> {
  // PGlite creates only the last path segment itself.
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const fresh = !dataDir || fs.readdirSync(dataDir).length === 0;
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(image && fresh ? { loadDataDir: image } : {}),
  });
  try {
    const db = drizzlePglite({ client, schema, casing: 'snake_case' });
    await migratePglite(db, { migrationsFolder });
    return { db, kind: 'pglite', close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function openPostgres(
  connectionString: string,
  onPoolError: (error: Error) => void = () => {},
): Promise<DatabaseHandle> {
  const pool = new Pool({ connectionString });
  // Without a listener an idle connection's error would crash the process; the pool replaces the
  // connection on the next checkout anyway.
  pool.on('error', onPoolError);
  keepCheckedOutErrorsHandled(pool);
  try {
    const db = drizzleNodePg({ client: pool, schema, casing: 'snake_case' });
    await withMigrationLock(pool, () => migrateNodePg(db, { migrationsFolder }));
    return { db, kind: 'postgres', close: () => pool.end() };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

/**
 * A small pool on an already migrated PostgreSQL, for worker threads (the sheet export reads its
 * rows there, off the request thread). PGlite has no equivalent: its one connection lives in the
 * main thread.
 */
export function connectPostgres(connectionString: string, max = 1): DatabaseHandle {
  const pool = new Pool({ connectionString, max });
  pool.on('error', () => {});
  keepCheckedOutErrorsHandled(pool);
  const db = drizzleNodePg({ client: pool, schema, casing: 'snake_case' });
  return { db, kind: 'postgres', close: () => pool.end() };
}

/**
 * The pool listens for errors only on idle connections. A checked-out one between statements (a
 * transaction waiting on JavaScript) that loses its server (a PostgreSQL restart) emits 'error' with
 * nobody listening, which would end the process. The statement in flight, if any, fails on its own;
 * the connection is marked unusable and the pool drops it when it is released.
 */
function keepCheckedOutErrorsHandled(pool: Pool): void {
  pool.on('connect', (client) => client.on('error', () => {}));
}

// Several server instances may start together against one PostgreSQL; drizzle's migrator does not
// lock, so the first instance migrates while the others wait and then find nothing left to do.
async function withMigrationLock(pool: Pool, run: () => Promise<void>): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await run();
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    lock.release();
  }
}

/**
 * A drizzle query built once per database (its SQL text and parameter order) and run as a named
 * prepared statement, with `sql.placeholder` values given to `execute`. Building a query costs
 * drizzle more than the round trip on the request path (issue 15: in the game details' profile the
 * two queries of `playContext` spent a third of the server's time in drizzle's builders). Not for
 * transactions: a transaction's `tx` is a new object each time, so it would be built anew anyway.
 */
export function preparedQuery<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const byDatabase = new WeakMap<Db, Q>();
  return (db) => {
    let query = byDatabase.get(db);
    if (query === undefined) byDatabase.set(db, (query = build(db)));
    return query;
  };
}

/** What runs a raw statement: a pool, a pooled connection (in a transaction), or PGlite (or its transaction). */
type DriverClient = Pool | PoolClient | Pick<PGlite, 'query'>;

/**
 * The driver's client under a database or one of its transactions. Drizzle keeps it on the
 * session: the pool's connection a transaction holds, or PGlite (or its transaction) itself.
 */
const driverOf = (db: Db): DriverClient => (db as unknown as { session: { client: DriverClient } }).session.client;

/**
 * Runs a hot statement whose text never changes, on `db` or inside a transaction's `tx`. On
 * PostgreSQL it is a named prepared statement, so each pooled connection parses it once and can
 * reuse its plan (for the small statements of the request path, planning costs as much as running
 * them); PGlite runs it as is. Rows come back as the driver gives them (no drizzle mapping: for a
 * batch of a hundred rows, building and mapping a wide drizzle query cost more of the server's CPU
 * than the round trip), so keep to plain columns.
 */
export async function queryNamed<T>(db: Db, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = driverOf(db);
  if (client instanceof Pool || client instanceof Client)
    return (await client.query<T & object>({ name, text, values })).rows;
  return (await client.query<T>(text, values)).rows;
}
