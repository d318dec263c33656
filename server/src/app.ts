import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { DatabaseHandle } from './db/client';
import type { Env } from './env';
import { handlers as builtHandlers } from './routes/handlers';
import type { Handlers } from './contract/handlers';
import { validatorCompiler } from './lib/validator-compiler';
import { closeIdleSockets } from './lib/idle-sockets';
import client from './plugins/external/client';
import websocket from './plugins/external/websocket';
import contract from './plugins/app/contract';
import db from './plugins/app/db';
import errors, { answerClientError, answerFrameworkError } from './plugins/app/errors';
import securityHeaders from './plugins/app/security-headers';
import crossSite from './plugins/app/cross-site';
import strictInput from './plugins/app/strict-input';
import compression from './plugins/app/compression';
import revalidate from './plugins/app/revalidate';
import health from './plugins/app/health';
import metrics from './plugins/app/metrics';
import i18n from './plugins/app/i18n';
import auth from './plugins/app/auth';
import cache from './plugins/app/cache';
import captcha from './plugins/app/captcha';
import mail from './plugins/app/mail';
import rateLimits, { type RateLimitOptions } from './plugins/app/rate-limit';
import { settingsPlugin as settings } from './modules/settings';
import signals from './plugins/app/signals';
import { RequestLogController } from './plugins/app/log-format';
import logs, { createLogStream, LogSink, loggerLevel } from './plugins/app/logs';
import { serializeError } from './plugins/app/log-errors';
import statistics from './plugins/app/statistics';
import leader from './plugins/app/leader';
import assets from './modules/assets/assets.plugin';
import { postsPlugin as posts } from './modules/posts';
import flagChecker from './plugins/app/flag-checker';
import scoreboardCache from './plugins/app/scoreboard-cache';
import noticeLists from './plugins/app/notice-lists';
import hubs from './plugins/app/hubs';
import {
  instancesPlugin as instances,
  proxyOtherMethods,
  proxyRouteOptions,
  type InstancesOptions,
} from './modules/instances';

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
  /** Rate-limit overrides (tests use tiny limits); the defaults are GZCTF's. */
  rateLimit?: RateLimitOptions;
  /** Container maintenance intervals, or a ready-made backend (tests). */
  instances?: InstancesOptions;
  /** Sees every route as it is declared (the test that the contract names every route). */
  onRoute?: (route: RouteOptions) => void;
  /** How long a request's headers may take to arrive (default 10 s; the test of a stalled upgrade waits less). */
  headersTimeoutMs?: number;
  /** How long a whole request, body included, may take to arrive (default 5 minutes; tests wait less). */
  requestTimeoutMs?: number;
  /** How long a connection may pass no byte either way while the client has its turn (default 2 minutes). */
  idleTimeoutMs?: number;
}

/**
 * A 64 MiB upload (the multipart file limit) must still fit on a slow link: 5 minutes is about
 * 1.8 Mbit/s. Past it, a body that is still arriving is answered 408 and its socket closed, so a
 * client that announces a megabyte and stalls holds the buffered part only for so long.
 */
const REQUEST_TIMEOUT_MS = 300_000;
/**
 * A socket silent for this long is closed: a stalled body or a client that stopped reading an answer.
 * Not the hubs' or the proxy's WebSockets: Node drops its timeout handler from a socket it hands to
 * an upgrade, and `ws` turns the timer off when it takes one over (`setSocket` in
 * ws/lib/websocket.js; tests/server/http/timeouts.test.ts). Not while our own handler works either
 * (`lib/idle-sockets.ts`).
 */
const IDLE_TIMEOUT_MS = 120_000;

/** Assembles the server: external plugins, then our app plugins, then the contract's routes. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { env } = options;
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // The headers are part of the request, so they cannot be given longer than all of it.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const idleTimeout = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  // One logger, two outputs: the console at LOG_LEVEL (none with `logger: false`) and the admin log
  // page, which stores Information and above whatever the console shows (plugins/app/logs.ts).
  const logSink = new LogSink(options.database.db);
  const consoleLevel = options.logger === false ? 'silent' : env.logLevel;
  const app = Fastify({
    logger: {
      level: loggerLevel(consoleLevel),
      redact: ['req.headers.cookie', 'req.headers.authorization'],
      // Errors without the values libraries attach (a Redis password, query parameters): log-errors.ts.
      serializers: { err: serializeError },
      // Readable lines for a person at a terminal; JSON for anything that collects the output.
      stream: createLogStream(logSink, consoleLevel, process.stdout, { pretty: process.stdout.isTTY === true }),
    },
    // Fastify's per-request lines ("incoming request", "request completed") only ever reach the
    // console (the log sink leaves them out) and are logged at debug, so unless LOG_LEVEL asks for
    // debug they are not produced at all.
    logController: new RequestLogController({ disableRequestLogging: !['trace', 'debug'].includes(consoleLevel) }),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    trustProxy: env.trustProxy,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // A request (a WebSocket upgrade included) whose headers have not all arrived after 10 s is
    // dropped: browsers send them at once, slow-header attacks hold sockets open for minutes. Node
    // looks for expired requests every interval, so one lives at most that much past its deadline.
    http: { headersTimeout, connectionsCheckingInterval: Math.min(2_000, Math.ceil(headersTimeout / 2)) },
    // Without these Fastify leaves both at 0 (never): a body that stops arriving kept its socket and
    // everything buffered so far for ever. No cap on connections per address, though: a venue puts
    // hundreds of players behind one.
    requestTimeout,
    connectionTimeout: idleTimeout,
  });
  // The idle timeout measures the client, not a handler still working on a received request.
  closeIdleSockets(app.server, idleTimeout);
  app.decorate('env', env);
  // `true` believes the left-most X-Forwarded-For entry, which the client writes whenever the proxy
  // appends to the header (as nginx's usual `$proxy_add_x_forwarded_for` does): every per-address
  // limit could then be dodged even behind the proxy.
  if (env.trustProxy === true) {
    app.log.warn(
      'TRUST_PROXY=true believes any X-Forwarded-For a client writes; set it to the proxy’s own address or range instead',
    );
  }
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Bodies validated as sent, wire strings converted only from decimal text; before any route.
  app.setValidatorCompiler(validatorCompiler());

  // external
  await app.register(cookie);
  // Multipart bodies are streamed, not held to bodyLimit; the form fields (which no route reads, and
  // which would be kept in memory) are capped so the stream cannot grow without bound.
  await app.register(multipart, {
    limits: { fileSize: 64 * 1024 * 1024, files: 32, fields: 16, fieldSize: 16 * 1024, parts: 64 },
  });
  await app.register(websocket);
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
  // First of the hooks: every answer gets these headers, and a forged request is refused before any work.
  await app.register(securityHeaders);
  await app.register(crossSite);
  // Early: its hooks time every route registered after it.
  await app.register(metrics);
  // Both add their hooks to routes as they are declared, so they come before any route.
  await app.register(revalidate);
  await app.register(compression);
  await app.register(db, { database: options.database });
  await app.register(cache);
  await app.register(signals);
  await app.register(settings);
  await app.register(mail);
  await app.register(captcha);
  // auth reads the session before the rate limiter counts per user (both are onRequest hooks).
  await app.register(auth);
  await app.register(rateLimits, options.rateLimit ?? {});
  // After auth and the limiter, so 401, 403 and 429 come before 415 (as in GZCTF); before the routes
  // that follow, whose options it reads as they are declared (/metrics, declared earlier, takes no
  // body and no upgrade: what strict-input assumes of a route it has not seen).
  await app.register(strictInput);
  await app.register(logs, { sink: logSink });
  await app.register(health);
  await app.register(leader);
  await app.register(statistics);
  await app.register(scoreboardCache);
  await app.register(noticeLists);
  await app.register(flagChecker);
  await app.register(hubs);
  await app.register(instances, options.instances ?? {});
  await app.register(contract, { handlers: options.handlers ?? builtHandlers, routeOptions: proxyRouteOptions });
  await app.register(assets);
  await app.register(posts);
  await app.register(proxyOtherMethods);
  await app.register(client);

  return app;
}
