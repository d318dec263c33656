import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { MetricsSettings } from '../../env';
import { forbidden, notFound } from '../../lib/http-error';
import { PlatformMetrics } from '../../lib/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: PlatformMetrics;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read /metrics: a matching bearer token (compared in constant time, over digests so the
 * length leaks nothing either) or a client address in METRICS_ALLOW. Nothing by default, loopback
 * included: behind a reverse proxy on the same host without TRUST_PROXY every public request
 * arrives from loopback, so trusting it would publish the metrics through the proxy.
 */
export function metricsAccess(settings: MetricsSettings): ((request: FastifyRequest) => boolean) | undefined {
  if (!settings.token && settings.allow.length === 0) return undefined;
  const expected = settings.token === undefined ? undefined : digest(settings.token);
  const allowList = new BlockList();
  for (const range of settings.allow) allowList.addSubnet(range.address, range.prefix, range.family);
  return (request) => {
    const header = request.headers.authorization;
    if (expected && header?.startsWith('Bearer ') && timingSafeEqual(digest(header.slice(7)), expected)) return true;
    // An IPv4 client on a dual-stack socket shows up as ::ffff:a.b.c.d.
    const ip = request.ip.startsWith('::ffff:') && isIPv4(request.ip.slice(7)) ? request.ip.slice(7) : request.ip;
    return allowList.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
  };
}

/**
 * Prometheus metrics at `/metrics` (`lib/metrics.ts`): request durations by route pattern from a hook
 * here, hub WebSockets counted while their sockets are open, acknowledgements counted by the game
 * service (the judge's queue also takes other instances' hand-overs), and what the judge, the
 * scoreboard cache and the instances module report once the app is ready. Registered
 * early, so its hooks time every route.
 */
async function metrics(app: FastifyInstance) {
  const platform = new PlatformMetrics((error) => app.log.warn({ err: error }, 'a metric could not be read'));
  app.decorate('metrics', platform);

  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (!request.ws || !route?.startsWith('/hub/')) return;
    const hub = route.slice('/hub/'.length);
    platform.hubConnections.inc({ hub });
    request.raw.socket.once('close', () => platform.hubConnections.dec({ hub }));
  });
  // A callback, not an async function: every answer passes here, and a promise each costs more.
  app.addHook('onResponse', (request, reply, done) => {
    // An upgraded socket's "response" is its whole lifetime.
    if (!request.ws) {
      platform.requestDuration.observe(
        { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    }
    done();
  });

  app.addHook('onReady', async () => {
    const { flagChecker, scoreboards, instances } = app;
    flagChecker.events.on('judged', (judgements) => {
      const now = Date.now();
      for (const judgement of judgements.values()) {
        platform.submissionsJudged.inc({ status: judgement.status });
        platform.judgeLag.observe(Math.max(0, now - judgement.submittedAt) / 1000);
      }
    });
    scoreboards.events.on('built', ({ ms }) => platform.scoreboardBuild.observe(ms / 1000));
    platform.countRunningInstances = () => instances.countRunning();
  });

  const mayRead = metricsAccess(app.env.metrics);
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    if (!mayRead) throw notFound();
    if (!mayRead(request)) throw forbidden();
    return reply
      .header('cache-control', 'no-store')
      .type(platform.contentType)
      .send(await platform.text());
  });
}

export default fp(metrics, { name: 'metrics', dependencies: ['errors'] });
