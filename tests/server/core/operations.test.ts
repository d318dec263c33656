import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { buildApp } from '../../../server/src/app';
import { EnvError, loadEnv } from '../../../server/src/env';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, client, newChallenge, newGame, settle, submit } from '../game/support';

const TOKEN = 'scrape-token-0123456789abcdef';
const redisUrl = process.env.REDIS_URL;

/** Every engine, and with Redis too when REDIS_URL is set (readiness then checks both). */
const setups = engines().flatMap((engine) => [
  { engine, redis: undefined as string | undefined },
  ...(redisUrl ? [{ engine, redis: redisUrl }] : []),
]);

/** The value of one sample line (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Polls `read` until `ok` holds (the close of a socket reaches the server a moment later). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const value = await read();
    if (ok(value) || attempt === 100) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('METRICS_TOKEN, METRICS_ALLOW and SHUTDOWN_TIMEOUT are checked at start', () => {
  const problems = (values: Record<string, string>) => {
    try {
      loadEnv(values);
      return [];
    } catch (error) {
      assert.ok(error instanceof EnvError);
      return error.problems;
    }
  };
  assert.match(problems({ METRICS_TOKEN: 'short' }).join(), /^METRICS_TOKEN: /);
  assert.match(problems({ METRICS_ALLOW: '10.0.0.0/8, example.org' }).join(), /^METRICS_ALLOW: /);
  assert.match(problems({ METRICS_ALLOW: '10.0.0.0/33' }).join(), /^METRICS_ALLOW: /);
  assert.match(problems({ SHUTDOWN_TIMEOUT: 'soon' }).join(), /^SHUTDOWN_TIMEOUT: /);
  const env = loadEnv({ METRICS_ALLOW: '127.0.0.1, ::1, 10.0.0.0/8, fd00::/8', SHUTDOWN_TIMEOUT: '40' });
  assert.deepEqual(env.metrics, {
    token: undefined,
    allow: [
      { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
      { address: '::1', prefix: 128, family: 'ipv6' },
      { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
      { address: 'fd00::', prefix: 8, family: 'ipv6' },
    ],
  });
  assert.equal(env.shutdownTimeoutSeconds, 40);
  assert.equal(loadEnv({}).shutdownTimeoutSeconds, 25);
  assert.deepEqual(loadEnv({}).metrics, { token: undefined, allow: [] });
});

for (const { engine, redis } of setups) {
  describe(`health, readiness and metrics on ${engine.name}${redis ? ' with Redis' : ''}`, () => {
    let ctx: TestApp;
    /** The database's close once a test has begun it (it ends when the app lets go of its clients). */
    let databaseClosing: Promise<void> | undefined;

    before(async () => {
      ctx = await createTestApp(engine, {
        env: testEnv({
          METRICS_TOKEN: TOKEN,
          METRICS_ALLOW: '10.9.0.0/16, 2001:db8::/32, 192.0.2.7',
          ...(redis ? { REDIS_URL: redis } : {}),
        }),
      });
    });
    after(async () => {
      if (!databaseClosing) return ctx.close();
      await ctx.app.close();
      await databaseClosing;
      fs.rmSync(ctx.env.dataDir, { recursive: true, force: true });
    });

    const scrape = async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.body;
    };

    test('/healthz answers alive with the engine, without asking anyone', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { status: 'Healthy', database: engine.name });
    });

    test('/readyz answers 200 when the database (and Redis) answer', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), {
        status: 'Healthy',
        database: engine.name,
        checks: redis ? { database: 'Healthy', redis: 'Healthy' } : { database: 'Healthy' },
        failed: [],
      });
    });

    test('/metrics is refused without the token or an allowed address, in the caller’s language', async () => {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789abc' }, { authorization: TOKEN }]) {
        const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
        assert.equal(response.statusCode, 403);
        assert.equal(response.json().status, 403);
        assert.equal(typeof response.json().title, 'string');
      }
      // Loopback is not trusted by default: behind a local proxy every request comes from there.
      for (const remoteAddress of ['127.0.0.1', '::1', '10.8.0.1', '192.0.2.8']) {
        const response = await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
        assert.equal(response.statusCode, 403, remoteAddress);
      }
      const german = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { 'accept-language': 'de-DE' } });
      assert.notEqual(german.json().title, (await ctx.app.inject({ method: 'GET', url: '/metrics' })).json().title);
    });

    test('/metrics is served with the bearer token and to allow-listed addresses', async () => {
      const withToken = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(withToken.statusCode, 200);
      assert.match(String(withToken.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      for (const remoteAddress of ['10.9.200.3', '::ffff:10.9.0.1', '2001:db8::42', '192.0.2.7']) {
        const response = await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
        assert.equal(response.statusCode, 200, remoteAddress);
      }
    });

    test('/metrics counts requests by route pattern, submissions, judging, scoreboards, hubs and instances', async () => {
      const admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
      const game = await newGame(admin);
      const challenge = await newChallenge(admin, game.id, { flags: ['flag{metrics}'] });
      const player = await acceptedPlayer(ctx.app, game.id);
      await submit(player, game.id, challenge.id, 'flag{metrics}');
      await submit(player, game.id, challenge.id, 'flag{wrong}');
      await settle(ctx.app);
      const board = await ctx.app.inject({ method: 'GET', url: `/api/game/${game.id}/scoreboard` });
      assert.equal(board.statusCode, 200);

      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = new WebSocket(`${base.replace('http', 'ws')}/hub/user?game=${game.id}`);
      const handshaken = new Promise<void>((resolve, reject) => {
        socket.once('message', () => resolve());
        socket.once('error', reject);
      });
      socket.once('open', () => socket.send('{"protocol":"json","version":1}\u001e'));
      await handshaken;

      const text = await scrape();
      assert.equal(sample(text, 'gzctf_submissions_acknowledged_total'), 2);
      assert.equal(sample(text, 'gzctf_submissions_judged_total{status="Accepted"}'), 1);
      assert.equal(sample(text, 'gzctf_submissions_judged_total{status="WrongAnswer"}'), 1);
      assert.equal(sample(text, 'gzctf_judge_lag_seconds_count'), 2);
      assert.ok(sample(text, 'gzctf_scoreboard_build_seconds_count')! >= 1, 'a scoreboard build was timed');
      assert.equal(sample(text, 'gzctf_hub_connections{hub="user"}'), 1);
      assert.equal(sample(text, 'gzctf_instances_running'), 0);
      assert.equal(
        sample(
          text,
          'http_request_duration_seconds_count{method="POST",route="/api/game/:id/challenges/:challengeId",status_code="200"}',
        ),
        2,
      );
      assert.ok(
        sample(
          text,
          'http_request_duration_seconds_count{method="GET",route="/api/game/:id/scoreboard",status_code="200"}',
        )! >= 1,
      );
      assert.ok(!text.includes(`/api/game/${game.id}/`), 'raw URLs never become label values');
      assert.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined, 'process metrics are included');
      assert.ok(text.includes('nodejs_eventloop_lag_seconds'), 'event-loop lag is included');

      socket.close();
      const closed = await eventually(scrape, (body) => sample(body, 'gzctf_hub_connections{hub="user"}') === 0);
      assert.equal(sample(closed, 'gzctf_hub_connections{hub="user"}'), 0);
    });

    test('without METRICS_TOKEN or METRICS_ALLOW /metrics does not exist for anyone', async () => {
      // A second app on the same database: cheap, and its settings are the defaults.
      const plain = await buildApp({ env: testEnv(), database: ctx.database, logger: false });
      try {
        for (const remoteAddress of ['127.0.0.1', '10.9.0.1']) {
          const response = await plain.inject({ method: 'GET', url: '/metrics', remoteAddress });
          assert.equal(response.statusCode, 404);
          assert.equal(response.json().status, 404);
        }
      } finally {
        await plain.close();
      }
    });

    test('/readyz answers 503 while shutting down', async () => {
      ctx.app.health.draining = true;
      try {
        const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(response.statusCode, 503);
        assert.equal(response.json().status, 'ShuttingDown');
      } finally {
        ctx.app.health.draining = false;
      }
    });

    if (redis) {
      test('/readyz answers 503 naming Redis when Redis does not answer', async () => {
        ctx.app.redis!.disconnect();
        const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(response.statusCode, 503);
        assert.equal(response.json().status, 'Unhealthy');
        assert.deepEqual(response.json().failed, ['redis']);
        assert.equal(response.json().checks.database, 'Healthy');
        const alive = await ctx.app.inject({ method: 'GET', url: '/healthz' });
        assert.equal(alive.statusCode, 200, 'liveness does not depend on Redis');
      });
    }

    test('/readyz answers 503 naming the database when it does not answer; /healthz stays 200', async () => {
      // Closing refuses new queries at once; the pool itself ends once the app has released the
      // connections it still holds (after this test), so it is not awaited here.
      databaseClosing = ctx.database.close();
      const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().status, 'Unhealthy');
      assert.ok(response.json().failed.includes('database'));
      assert.equal(response.json().checks.database, 'Unhealthy');
      const alive = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(alive.statusCode, 200);
    });
  });
}
