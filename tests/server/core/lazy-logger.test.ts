import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { lazyChild } from '../../../server/src/plugins/app/lazy-logger';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line) as never) } },
  });
  return { logger: app.log, lines };
}

test('a lazy request logger binds only when something is logged, and then with its bindings', () => {
  const { logger, lines } = capture();
  let bound = 0;
  const log = lazyChild(logger, () => {
    bound += 1;
    return { ip: '10.0.0.1', userName: 'alice' };
  });
  assert.equal(log.level, 'info');
  assert.equal(bound, 0, 'reading the level makes no child');

  log.info({ status: 'Success' }, 'did %s', 'something');
  log.warn('careful');
  assert.equal(bound, 1, 'one child, made on the first call');
  assert.deepEqual(
    lines.map(({ msg, ip, userName, status, level }) => ({ msg, ip, userName, status, level })),
    [
      { msg: 'did something', ip: '10.0.0.1', userName: 'alice', status: 'Success', level: 30 },
      { msg: 'careful', ip: '10.0.0.1', userName: 'alice', status: undefined, level: 40 },
    ],
  );

  log.child({ logger: 'Game' }).error('failed');
  assert.equal(lines.at(-1)?.logger, 'Game');
  assert.equal(lines.at(-1)?.userName, 'alice');
  log.debug('below the level');
  assert.equal(lines.length, 3);
});
