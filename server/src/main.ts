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
  close(): Promise<void>;
}

/** Opens (and migrates) the database, builds the app and listens. */
export async function startServer(env: Env): Promise<RunningServer> {
  fs.mkdirSync(env.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: env.databaseUrl ? undefined : path.join(env.dataDir, 'db'),
  });
  const app = await buildApp({ env, database });
  app.addHook('onClose', async () => database.close());
  let admin;
  try {
    admin = await bootstrapAdmin(app.db, env);
    await app.listen({ host: env.host, port: env.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.port;
  const url = env.publicUrl ?? `http://localhost:${port}`;
  return { app, url, initialAdminPassword: admin.generatedPassword, close: () => app.close() };
}

/** Stops accepting requests, lets running ones finish, then closes the database. */
function closeOnSignals(server: RunningServer) {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      server.app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          server.app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

export async function main(env: Env = loadEnv()): Promise<void> {
  const server = await startServer(env);
  closeOnSignals(server);
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
