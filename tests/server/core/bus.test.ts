import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { bus, type AppEvents } from '../../../server/src/lib/bus';

// The application bus on its own: emits reach the listeners subscribed at the time, and a failing
// listener costs neither the emitter nor the other listeners.

describe('the application bus', () => {
  test('a listener hears its event until it unsubscribes, and only its event', () => {
    const heard: AppEvents['scoreboardChanged'][] = [];
    const listener = (payload: AppEvents['scoreboardChanged']) => heard.push(payload);
    bus.on('scoreboardChanged', listener);
    try {
      bus.emit('scoreboardChanged', { gameId: 1, cause: 'edit' });
      bus.emit('containersRemoved', { containerIds: ['x'] });
      bus.emit('scoreboardChanged', { gameId: 2, cause: 'solve' });
    } finally {
      bus.off('scoreboardChanged', listener);
    }
    bus.emit('scoreboardChanged', { gameId: 3, cause: 'edit' });
    assert.deepEqual(heard, [
      { gameId: 1, cause: 'edit' },
      { gameId: 2, cause: 'solve' },
    ]);
  });

  test('a throwing listener becomes a process warning; the emitter and the later listeners go on', async () => {
    const heard: string[][] = [];
    const failing = () => {
      throw new Error('listener broke');
    };
    const listener = ({ containerIds }: AppEvents['containersRemoved']) => heard.push(containerIds);
    bus.on('containersRemoved', failing);
    bus.on('containersRemoved', listener);
    const warned = once(process, 'warning');
    try {
      assert.doesNotThrow(() => bus.emit('containersRemoved', { containerIds: ['a'] }));
    } finally {
      bus.off('containersRemoved', failing);
      bus.off('containersRemoved', listener);
    }
    const [warning] = (await warned) as [Error];
    assert.equal(warning.message, 'listener broke');
    assert.deepEqual(heard, [['a']]);
  });
});
