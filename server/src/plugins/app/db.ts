import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, DatabaseHandle } from '../../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    database: DatabaseHandle;
  }
}

/** The database is opened (and migrated) by the caller, so tests can hand in a disposable one. */
export default fp(
  async function db(app: FastifyInstance, options: { database: DatabaseHandle }) {
    app.decorate('database', options.database);
    app.decorate('db', options.database.db);
  },
  { name: 'db' },
);
