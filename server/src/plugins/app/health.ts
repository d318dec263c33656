import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    health: Health;
  }
}

export interface Health {
  /** Set when a graceful shutdown begins: /readyz answers 503 so load balancers stop sending work. */
  draining: boolean;
}

type Check = 'Healthy' | 'Unhealthy';

/** A dependency that does not answer within this time counts as down (a probe must not hang). */
const CHECK_TIMEOUT_MS = 2_000;

async function probe(run: () => Promise<unknown>): Promise<Check | Error> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return 'Healthy';
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process is alive and serving (liveness; touches nothing, so a slow database never
 * gets healthy instances restarted). `/readyz`: the database and Redis (when configured) answer and
 * no shutdown is under way (readiness; 503 names what failed). GZCTF serves health on its metrics
 * port; we serve both on the main one.
 */
export default fp(
  async function health(app: FastifyInstance) {
    const state: Health = { draining: false };
    app.decorate('health', state);

    app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'Healthy', database: app.database.kind }));

    app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
      const [database, redis] = await Promise.all([
        probe(() => app.db.execute(sql`select 1`)),
        app.redis ? probe(() => app.redis!.ping()) : undefined,
      ]);
      const checks: Record<string, Check> = {};
      const failed: string[] = [];
      for (const [name, result] of [
        ['database', database],
        ['redis', redis],
      ] as const) {
        if (result === undefined) continue;
        checks[name] = result === 'Healthy' ? 'Healthy' : 'Unhealthy';
        if (result instanceof Error) {
          failed.push(name);
          app.log.error({ err: result, dependency: name }, 'readiness check failed');
        }
      }
      const status = state.draining ? 'ShuttingDown' : failed.length ? 'Unhealthy' : 'Healthy';
      return reply
        .status(status === 'Healthy' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status, database: app.database.kind, checks, failed });
    });
  },
  { name: 'health', dependencies: ['db', 'cache'] },
);
