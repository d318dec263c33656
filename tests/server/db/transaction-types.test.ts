import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database, Db } from '../../../server/src/db/client';

// A type-level test: `tsc -p server/tsconfig.json` checks the body below, and each @ts-expect-error
// fails that check as soon as the line under it compiles. On PGlite (one connection) a transaction
// opened inside another waits for the outer one forever, so it must not type-check.
test('a transaction cannot be opened on a transaction or handed to code that opens one', () => {
  // Never called: only its types matter.
  const nested = (db: Database, opensOne: (db: Database) => Promise<void>, queries: (db: Db) => Promise<void>) =>
    db.transaction(async (tx) => {
      await queries(tx);
      // @ts-expect-error a transaction's tx has no transaction()
      await tx.transaction(async () => {});
      // @ts-expect-error code that opens a transaction takes the Database, which a tx is not
      await opensOne(tx);
    });
  assert.equal(typeof nested, 'function');
});
