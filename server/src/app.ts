import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DatabaseHandle } from './db/client';
import type { Env } from './env';
import { handlers as builtHandlers } from './modules/handlers';
import type { Handlers } from './contract/handlers';
import { ajvFormats } from './lib/ajv-formats';
import client from './plugins/external/client';
import contract from './plugins/app/contract';
import db from './plugins/app/db';
import errors from './plugins/app/errors';
import health from './plugins/app/health';
import i18n from './plugins/app/i18n';
import settings from './plugins/app/settings';

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
  }
}

export interface BuildOptions {
  env: Env;
  database: DatabaseHandle;
  /** Replaces the built handlers, for tests of the contract machinery itself. */
  handlers?: Handlers;
  logger?: boolean;
}

/** Assembles the server: external plugins, then our app plugins, then the contract's routes. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { env } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: env.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    ajv: {
      customOptions: { strict: false, coerceTypes: 'array', removeAdditional: true, useDefaults: true },
      plugins: [ajvFormats],
    },
  });
  app.decorate('env', env);

  // external
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 64 * 1024 * 1024, files: 32 } });
  // The contract names these types for downloads; a parser keeps the route glue from warning about them.
  app.addContentTypeParser(
    [
      'application/octet-stream',
      'application/x-tar',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    { parseAs: 'buffer' },
    (_request, body, done) => done(null, body),
  );

  // app
  await app.register(i18n);
  await app.register(errors);
  await app.register(db, { database: options.database });
  await app.register(settings);
  await app.register(health);
  await app.register(contract, { handlers: options.handlers ?? builtHandlers });
  await app.register(client);

  return app;
}
