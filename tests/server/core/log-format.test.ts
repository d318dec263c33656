import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import type { Db } from '../../../server/src/db/client';
import { formatLogLine, RequestLogController } from '../../../server/src/plugins/app/log-format';
import { createLogStream, LogSink } from '../../../server/src/plugins/app/logs';

const AT = new Date(2026, 0, 2, 3, 4, 5, 67).getTime();

test('a record reads as one line: time, level, message, then its fields', () => {
  const line = formatLogLine({
    level: 40,
    time: AT,
    pid: 1,
    hostname: 'box',
    msg: 'Sign-in denied',
    userName: 'alice',
    ip: '10.0.0.1',
    status: 'Denied',
    detail: 'two words',
  });
  assert.equal(line, '03:04:05.067 WARN  Sign-in denied userName=alice ip=10.0.0.1 status=Denied detail="two words"');
  assert.ok(!line.includes('\n'));
});

test("a request's lines say method, path, status and time; an error its type and message", () => {
  assert.equal(
    formatLogLine({
      level: 20,
      time: AT,
      reqId: 'req-1',
      req: { method: 'GET', url: '/api/config' },
      msg: 'incoming request',
    }),
    '03:04:05.067 DEBUG GET /api/config incoming request reqId=req-1',
  );
  assert.equal(
    formatLogLine({ level: 20, time: AT, res: { statusCode: 404 }, responseTime: 3.25, msg: 'request completed' }),
    '03:04:05.067 DEBUG request completed 404 3.3 ms',
  );
  assert.equal(
    formatLogLine({
      level: 50,
      time: AT,
      msg: 'Judge batch failed',
      err: { type: 'Error', message: 'connection lost' },
    }),
    '03:04:05.067 ERROR Judge batch failed (Error: connection lost)',
  );
});

// Only debug records go through: the sink stores Information and above, and these never reach it.
function stream(pretty?: boolean) {
  const written: string[] = [];
  const sink = new LogSink(undefined as unknown as Db, { intervalMs: 3_600_000 });
  const options = pretty === undefined ? undefined : { pretty };
  const destination = createLogStream(sink, 'debug', { write: (line: string) => written.push(line) }, options);
  return { written, destination, close: () => sink.close() };
}

test('the console keeps the JSON lines unless asked for pretty ones (stdout not a terminal)', async () => {
  const json = JSON.stringify({ level: 20, time: AT, msg: 'cache warmed', entries: 3 }) + '\n';
  for (const pretty of [undefined, false]) {
    const { written, destination, close } = stream(pretty);
    destination.write(json);
    assert.deepEqual(written, [json]);
    await close();
  }
  const { written, destination, close } = stream(true);
  destination.write(json);
  assert.deepEqual(written, ['03:04:05.067 DEBUG cache warmed entries=3\n']);
  await close();
});

async function requestLines(level: 'info' | 'debug') {
  const lines: Array<{ level: number; msg: string }> = [];
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line) as never) } },
    logController: new RequestLogController({ disableRequestLogging: level !== 'debug' }),
  });
  app.get('/ping', async () => 'pong');
  await app.inject({ method: 'GET', url: '/ping' });
  await app.inject({ method: 'GET', url: '/missing' });
  await app.close();
  return lines.filter((line) => /request|not found/.test(line.msg));
}

test("Fastify's per-request lines are debug records, produced only when debug is asked for", async () => {
  assert.deepEqual(await requestLines('info'), []);
  const lines = await requestLines('debug');
  assert.ok(lines.some((line) => line.msg === 'incoming request'));
  assert.ok(lines.some((line) => line.msg === 'request completed'));
  assert.ok(lines.some((line) => line.msg === 'Route GET:/missing not found'));
  assert.deepEqual(new Set(lines.map((line) => line.level)), new Set([20]));
});
