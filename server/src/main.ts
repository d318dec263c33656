import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { EnvError, loadEnv, type Env } from './env';
import { bootstrapAdmin } from './plugins/app/admin-bootstrap';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Set when this start created the first `Admin` with a generated password (shown once). */
  initialAdminPassword: string | undefined;
  /** Closes at once: queued submissions stay FlagSubmitted for the next start (tests, restarts). */
  close(): Promise<void>;
  /**
   * The graceful stop of SIGTERM/SIGINT: /readyz turns 503, the listener closes (new connections are
   * refused), requests in flight finish, hub and proxy WebSockets are closed, the judge finishes
   * what is queued, then the caches, Redis and the database close.
   */
  shutdown(): Promise<void>;
}

/** Opens (and migrates) the database, builds the app and listens. */
export async function startServer(env: Env): Promise<RunningServer> {
  fs.mkdirSync(env.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: env.databaseUrl ? undefined : path.join(env.dataDir, 'db'),
  });
  let app: FastifyInstance;
  try {
    app = await buildApp({ env, database });
  } catch (error) {
    await database.close();
    throw error;
  }
  let drainJudge = false;
  // Added after every plugin, so Fastify runs it first among the close hooks: after the listener
  // closed and the requests in flight (whose submissions are queued by then) finished, before the
  // judge plugin stops its queue.
  app.addHook('onClose', async () => {
    if (drainJudge) await app.flagChecker.idle();
  });
  // The database closes after the app, not in a close hook: the plugins' own close hooks (the
  // judge's batch in flight, the scoreboard's last regeneration) still write to it.
  const close = async () => {
    try {
      await app.close();
    } finally {
      await database.close();
    }
  };
  let admin;
  try {
    admin = await bootstrapAdmin(app.db, env);
    await app.listen({ host: env.host, port: env.port });
  } catch (error) {
    await close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.port;
  const url = env.publicUrl ?? `http://localhost:${port}`;
  return {
    app,
    url,
    initialAdminPassword: admin.generatedPassword,
    close,
    shutdown: () => {
      app.health.draining = true;
      drainJudge = true;
      return close();
    },
  };
}

/**
 * SIGTERM/SIGINT stop gracefully and exit 0; a second signal, or SHUTDOWN_TIMEOUT seconds without
 * finishing, exits 1 at once. Nothing acknowledged is lost either way: a submission is committed as
 * FlagSubmitted before its id is sent, and the judge re-queues every such row when it starts.
 */
function closeOnSignals(server: RunningServer, timeoutSeconds: number) {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      server.app.log.warn({ signal }, 'second signal: exiting without finishing the shutdown');
      process.exit(1);
    }
    closing = true;
    server.app.log.info({ signal, timeoutSeconds }, 'shutting down: finishing requests and judging');
    const force = setTimeout(() => {
      server.app.log.error({ timeoutSeconds }, 'shutdown did not finish in time (SHUTDOWN_TIMEOUT); exiting');
      process.exit(1);
    }, timeoutSeconds * 1000);
    force.unref();
    server.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

export async function main(env: Env = loadEnv()): Promise<void> {
  const server = await startServer(env);
  closeOnSignals(server, env.shutdownTimeoutSeconds);
  const database = env.databaseUrl ? 'PostgreSQL' : `PGlite in ${path.join(env.dataDir, 'db')}`;
  process.stdout.write(`\nThe platform is running at ${server.url} (database: ${database})\n`);
  // Printed, never logged: log lines are kept and shipped; this is for the person starting the server.
  if (server.initialAdminPassword) {
    process.stdout.write(
      `Sign in as Admin with password ${server.initialAdminPassword} (shown once; change it in your profile)\n`,
    );
  }
  process.stdout.write('\n');
}

export function exitOnStartupError(error: unknown): never {
  if (error instanceof EnvError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
}

if (require.main === module) {
  main().catch(exitOnStartupError);
}
