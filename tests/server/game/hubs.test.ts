import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  HttpTransportType,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
  type HubConnection,
} from '@microsoft/signalr';
import { eq } from 'drizzle-orm';
import { games, sessions } from '../../../server/src/db/schema';
import { extendSession } from '../../../server/src/modules/accounts';
import { computeScoreboard, type ScoreboardModel } from '../../../server/src/modules/scoreboard/scoreboard';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { asUser } from '../helpers/users';
import { acceptedPlayer, client, newChallenge, newGame, settle, submit, type Client } from './support';

const [pglite] = engines();

/** Resolves with the first invocation of `method`, or rejects after a few seconds. */
function next<T>(connection: HubConnection, method: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${method} within 5 s`)), 5000);
    connection.on(method, (payload: T) => {
      clearTimeout(timer);
      connection.off(method);
      resolve(payload);
    });
  });
}

describe('SignalR hubs on a listening server', () => {
  let ctx: TestApp;
  let admin: Client;
  let adminCookie: string;
  let base: string;
  const connections: HubConnection[] = [];

  before(async () => {
    ctx = await createTestApp(pglite!);
    adminCookie = (await asUser(ctx.app, 'Admin')).cookie;
    admin = client(ctx.app, adminCookie);
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    for (const connection of connections) await connection.stop();
    await ctx.close();
  });

  const connect = async (path: string, options: { cookie?: string; skipNegotiation?: boolean } = {}) => {
    const connection = new HubConnectionBuilder()
      .withUrl(`${base}${path}`, {
        transport: HttpTransportType.WebSockets,
        skipNegotiation: options.skipNegotiation ?? false,
        headers: options.cookie ? { cookie: options.cookie } : {},
      })
      .configureLogging(LogLevel.None)
      .build();
    await connection.start();
    connections.push(connection);
    return connection;
  };

  test('an anonymous client of /hub/user receives ReceivedGameNotice when an admin posts a notice', async () => {
    const game = await newGame(admin);
    const connection = await connect(`/hub/user?game=${game.id}`);
    const received = next<{ type: string; values: string[]; time: string }>(connection, 'ReceivedGameNotice');
    const response = await admin('POST', `/api/edit/games/${game.id}/notices`, { content: 'hello players' });
    assert.equal(response.statusCode, 200, response.body);
    const notice = await received;
    assert.equal(notice.type, 'Normal');
    assert.deepEqual(notice.values, ['hello players']);
    assert.ok(!Number.isNaN(Date.parse(notice.time)));
  });

  test('a monitor receives judged submissions and events; players receive blood notices', async () => {
    const game = await newGame(admin);
    const challenge = await newChallenge(admin, game.id, { flags: ['flag{hub}'] });
    const player = await acceptedPlayer(ctx.app, game.id);
    const monitor = await connect(`/hub/monitor?game=${game.id}`, { cookie: adminCookie, skipNegotiation: true });
    const user = await connect(`/hub/user?game=${game.id}`);
    const submission = next<{ status: string; team: string }>(monitor, 'ReceivedSubmissions');
    const event = next<{ type: string }>(monitor, 'ReceivedGameEvent');
    const blood = next<{ type: string; values: string[] }>(user, 'ReceivedGameNotice');
    await submit(player, game.id, challenge.id, 'flag{hub}');
    await settle(ctx.app);
    assert.deepEqual(await submission.then((value) => [value.status, value.team]), ['Accepted', player.team.name]);
    assert.equal((await event).type, 'FlagSubmit');
    assert.deepEqual(await blood.then((value) => [value.type, value.values[0]]), ['FirstBlood', player.team.name]);
  });

  test('a wrong answer to a static challenge, judged at the intake, reaches the monitor with its event', async () => {
    const game = await newGame(admin);
    const challenge = await newChallenge(admin, game.id, { flags: ['flag{hub}'] });
    const player = await acceptedPlayer(ctx.app, game.id);
    const monitor = await connect(`/hub/monitor?game=${game.id}`, { cookie: adminCookie, skipNegotiation: true });
    const submission = next<{ status: string; team: string; user: string; challenge: string; answer: string }>(
      monitor,
      'ReceivedSubmissions',
    );
    const event = next<{ type: string; values: string[]; team: string }>(monitor, 'ReceivedGameEvent');
    // No judge runs: what arrives comes from the intake.
    await ctx.app.flagChecker.stop();
    try {
      await submit(player, game.id, challenge.id, 'flag{nope}');
      assert.deepEqual(await submission, {
        ...(await submission),
        status: 'WrongAnswer',
        team: player.team.name,
        user: player.user.userName,
        challenge: challenge.title,
        answer: 'flag{nope}',
      });
      assert.deepEqual(await event.then((value) => [value.type, value.values, value.team]), [
        'FlagSubmit',
        ['WrongAnswer', 'flag{nope}', challenge.title, String(challenge.id)],
        player.team.name,
      ]);
    } finally {
      await ctx.app.flagChecker.start([]);
    }
  });

  test('an admin on /hub/admin receives log lines as ReceivedLog', async () => {
    const game = await newGame(admin);
    const connection = await connect('/hub/admin', { cookie: adminCookie });
    const received = new Promise<{ msg: string; level: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no ReceivedLog within 5 s')), 5000);
      connection.on('ReceivedLog', (log: { msg: string; level: string }) => {
        if (!log.msg.includes(`joined game ${game.id}`)) return;
        clearTimeout(timer);
        resolve(log);
      });
    });
    await acceptedPlayer(ctx.app, game.id);
    assert.equal((await received).level, 'Information');
  });

  test("a monitor's open connection ends when the role is taken away, and reconnecting is refused", async () => {
    const { user, cookie } = await asUser(ctx.app, 'Monitor');
    const game = await newGame(admin);
    const connection = await connect(`/hub/monitor?game=${game.id}`, { cookie });
    const ended = new Promise<void>((resolve) => connection.onclose(() => resolve()));
    const demoted = await admin('PUT', `/api/admin/users/${user.id}`, { role: 'User' });
    assert.equal(demoted.statusCode, 200, demoted.body);
    await Promise.race([
      ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('still connected after 5 s')), 5000)),
    ]);
    await assert.rejects(connect(`/hub/monitor?game=${game.id}`, { cookie }));
  });

  test("a monitor's connection outlives a change that leaves the right intact (the session's expiry sliding)", async () => {
    const { user, cookie } = await asUser(ctx.app, 'Monitor');
    const game = await newGame(admin);
    const connection = await connect(`/hub/monitor?game=${game.id}`, { cookie });
    const [session] = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    await extendSession(ctx.app.db, session!.id, new Date(Date.now() + 3_600_000));
    // Past the second check (2 s after the announcement).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(connection.state, HubConnectionState.Connected);
  });

  test('the monitor hub refuses anonymous clients; an unknown game is refused', async () => {
    await assert.rejects(connect(`/hub/monitor?game=1`));
    await assert.rejects(connect(`/hub/user?game=999999`));
  });
});

const redisUrl = process.env.REDIS_URL;

describe('hubs and scoreboards through Redis', { skip: redisUrl ? false : 'REDIS_URL is not set' }, () => {
  let ctx: TestApp;
  let admin: Client;
  let base: string;
  let connection: HubConnection | undefined;

  before(async () => {
    ctx = await createTestApp(pglite!, { env: testEnv({ REDIS_URL: redisUrl! }) });
    admin = client(ctx.app, (await asUser(ctx.app, 'Admin')).cookie);
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await connection?.stop();
    await ctx.close();
  });

  test('a notice goes out through the Redis channel exactly once; the cached board equals a recomputation', async () => {
    const game = await newGame(admin);
    const challenge = await newChallenge(admin, game.id, { flags: ['flag{redis}'] });
    const player = await acceptedPlayer(ctx.app, game.id);
    connection = new HubConnectionBuilder()
      .withUrl(`${base}/hub/user?game=${game.id}`, { transport: HttpTransportType.WebSockets })
      .configureLogging(LogLevel.None)
      .build();
    const received: unknown[] = [];
    connection.on('ReceivedGameNotice', (notice: unknown) => received.push(notice));
    await connection.start();
    await admin('POST', `/api/edit/games/${game.id}/notices`, { content: 'via redis' });
    const deadline = Date.now() + 5000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(received.length, 1);

    await submit(player, game.id, challenge.id, 'flag{redis}');
    await settle(ctx.app);
    const served = (await admin('GET', `/api/game/${game.id}/scoreboard`)).json<ScoreboardModel>();
    const [row] = await ctx.app.db.select().from(games).where(eq(games.id, game.id));
    const fresh = await computeScoreboard(ctx.app.db, row!);
    assert.deepEqual({ ...served, updateTimeUtc: 0 }, { ...fresh, updateTimeUtc: 0 });
    assert.equal(served.items[0]!.score, 1050);
    assert.ok(await ctx.app.redis!.exists(`${ctx.app.redisPrefix}cache:_ScoreBoard_${game.id}`));
  });

  test('a game nobody monitors has its monitor messages held, not published; a monitor connecting later still gets what follows', async () => {
    const game = await newGame(admin);
    const challenge = await newChallenge(admin, game.id, { flags: ['flag{held}'] });
    const player = await acceptedPlayer(ctx.app, game.id);
    const channel = `${ctx.app.redisPrefix}hubs:monitor:${game.id}`;
    // What goes to Redis on the monitor group's channel: a spy on the one client that publishes,
    // which also keeps each pipeline's answer, so the test can wait for the hubs to have read it.
    const published: string[] = [];
    const replies: Array<Promise<unknown>> = [];
    const redis = ctx.app.redis!;
    const pipeline = redis.pipeline.bind(redis);
    redis.pipeline = ((...args: Parameters<typeof pipeline>) => {
      const made = pipeline(...args);
      const publish = made.publish.bind(made);
      made.publish = ((name: string, message: string) => {
        if (name === channel) published.push(message);
        return publish(name, message);
      }) as typeof made.publish;
      const exec = made.exec.bind(made);
      made.exec = ((...execArgs: Parameters<typeof exec>) => {
        const reply = exec(...execArgs);
        replies.push(reply);
        return reply;
      }) as typeof made.exec;
      return made;
    }) as typeof redis.pipeline;
    try {
      for (let i = 0; i < 5; i++) {
        await submit(player, game.id, challenge.id, `flag{nope-${i}}`);
        await settle(ctx.app);
        // The messages go out on the next turn; the hubs learn from the answer that nobody heard
        // them (their handler on it was attached first, so it has run once this wait ends). A fixed
        // pause here had let a slow answer on a busy machine see the next submission published too.
        await new Promise((resolve) => setImmediate(resolve));
        await Promise.allSettled(replies);
      }
      // The first publication reached nobody; after it the group's messages wait for a listener.
      const messages = published.filter((text) => text !== '[]');
      assert.equal(messages.length, 1, `published: ${messages.length} times`);

      connection = new HubConnectionBuilder()
        .withUrl(`${base}/hub/monitor?game=${game.id}`, {
          transport: HttpTransportType.WebSockets,
          headers: { cookie: (await asUser(ctx.app, 'Monitor')).cookie },
        })
        .configureLogging(LogLevel.None)
        .build();
      const answers: string[] = [];
      connection.on('ReceivedSubmissions', (submission: { answer: string }) => answers.push(submission.answer));
      await connection.start();
      await submit(player, game.id, challenge.id, 'flag{seen}');
      const deadline = Date.now() + 5000;
      while (!answers.includes('flag{seen}') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(answers.includes('flag{seen}'), `received: ${answers.join(', ')}`);
    } finally {
      redis.pipeline = pipeline;
      await connection?.stop();
      connection = undefined;
    }
  });
});
