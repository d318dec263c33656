import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { DatabaseHandle } from '../../../server/src/db/client';
import * as schema from '../../../server/src/db/schema';
import { openPgliteFromImage } from './pglite-image';

/**
 * In-memory PGlite databases lent to one describe block after another within a test process (the
 * server's test files run several to a process: tests/node-tests.ts). Starting a PGlite from the
 * migrated image costs over half a CPU-second, and its first statements more while they warm up;
 * emptying one for the next borrower costs a small fraction of that. A borrower sees what a new
 * database gives: the migrated schema, no rows, identities restarting at 1, a new installation
 * identity.
 */
const idle: PGlite[] = [];

/**
 * How long an emptied database waits for its next borrower (the next describe block starts within
 * milliseconds of the last one's end) before it is closed: an open PGlite re-arms a timer to flush
 * its statistics every 10 s, which would keep the test process from ever exiting.
 */
const LINGER_MS = 1_000;
let lingering: NodeJS.Timeout | undefined;

function closeIdleLater(): void {
  clearTimeout(lingering);
  lingering = setTimeout(() => {
    for (const client of idle.splice(0)) void client.close();
  }, LINGER_MS);
  lingering.unref();
}

/** What a borrower may have left behind, undone: the session's state, then every row. */
async function empty(client: PGlite): Promise<void> {
  // A borrower that closed inside a transaction (a failed test) leaves it open; outside one, this
  // only warns.
  await client.exec('rollback');
  // Prepared statements, temporary tables, session settings and advisory locks.
  await client.exec('discard all');
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
  );
  await client.exec(
    `truncate ${rows.map((row) => row.name).join(', ')} restart identity cascade;
     insert into installation (id) values (gen_random_uuid());`,
  );
}

/** The PGlite under a handle that `openPgliteFromImage` made. */
const clientOf = (handle: DatabaseHandle) => (handle.db as unknown as { $client: PGlite }).$client;

/**
 * The part of PGlite drizzle and `queryNamed` use, refusing new work once the borrower has closed
 * its handle: a closed database must fail as a closed one does (the readiness tests close it under
 * a running app), and a late query must never reach the next borrower's rows.
 */
function lease(client: PGlite, isClosed: () => boolean): PGlite {
  const open = () => {
    if (isClosed()) throw new Error('PGlite is closed');
  };
  const lent = {
    query: (...args: Parameters<PGlite['query']>) => (open(), client.query(...args)),
    exec: (...args: Parameters<PGlite['exec']>) => (open(), client.exec(...args)),
    transaction: (...args: Parameters<PGlite['transaction']>) => (open(), client.transaction(...args)),
  };
  return lent as unknown as PGlite;
}

/** A migrated, empty in-memory PGlite: one this process emptied if it has one, else a new one. */
export async function borrowPglite(): Promise<DatabaseHandle> {
  clearTimeout(lingering);
  const client = idle.pop() ?? clientOf(await openPgliteFromImage());
  let closing: Promise<void> | undefined;
  return {
    db: drizzle({ client: lease(client, () => closing !== undefined), schema, casing: 'snake_case' }),
    kind: 'pglite',
    close() {
      closing ??= empty(client).then(
        () => {
          idle.push(client);
          closeIdleLater();
        },
        // A database that cannot be emptied is not lent again.
        () => client.close(),
      );
      return closing;
    },
  };
}
