import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Liveness for load balancers and `npm start`; GZCTF serves it on its metrics port, we on the main one. */
export default fp(
  async function health(app: FastifyInstance) {
    app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'Healthy', database: app.database.kind };
      } catch (error) {
        app.log.error({ err: error }, 'health check failed');
        return reply.status(503).send({ status: 'Unhealthy', database: app.database.kind });
      }
    });
  },
  { name: 'health', dependencies: ['db'] },
);
