import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Small announcements between server instances ("settings changed", "judge these leftovers"), not
 * hub traffic (plugins/app/hubs.ts has its own channel) nor domain events (lib/bus.ts, in-process,
 * whose header says who carries what across instances). With REDIS_URL every instance, the sender
 * included, hears each message once through one Redis channel; without it there is one instance and
 * messages go straight to its own listeners.
 */
export interface Signals {
  publish(topic: string, payload?: unknown): Promise<void>;
  subscribe(topic: string, listener: (payload: unknown) => void): void;
  /**
   * Called when this instance hears the channel again after a break (its Redis subscriber
   * reconnected): messages sent meanwhile never arrive, so whoever caches on the strength of them
   * reloads. Never called without Redis.
   */
  onReconnect(listener: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    signals: Signals;
  }
}

export default fp(
  async function signals(app: FastifyInstance) {
    const local = new EventEmitter();
    const hear = (topic: string, payload: unknown) => {
      // A listener's failure must not stop the others, nor the subscriber connection.
      for (const listener of local.listeners(topic)) {
        try {
          (listener as (value: unknown) => void)(payload);
        } catch (error) {
          app.log.warn({ err: error, topic }, 'a signal listener failed');
        }
      }
    };
    const subscribe = (topic: string, listener: (payload: unknown) => void) => void local.on(topic, listener);
    const reconnectListeners: Array<() => void> = [];
    const onReconnect = (listener: () => void) => void reconnectListeners.push(listener);
    const redis = app.redis;
    if (!redis) {
      app.decorate('signals', {
        publish: async (topic: string, payload?: unknown) => hear(topic, payload),
        subscribe,
        onReconnect,
      });
      return;
    }
    const channel = `${app.redisPrefix}signals`;
    const subscriber = redis.duplicate();
    subscriber.on('error', (error: Error) => app.log.warn({ err: error }, 'signal subscriber error'));
    await subscriber.subscribe(channel);
    subscriber.on('message', (_channel: string, text: string) => {
      const { topic, payload } = JSON.parse(text) as { topic: string; payload: unknown };
      hear(topic, payload);
    });
    // Every later `ready` is a reconnection. ioredis subscribes again by itself, but only after this
    // event; the answer to our own subscribe says the channel is heard again, so what the listeners
    // reload then cannot miss a message sent in between.
    subscriber.on('ready', () => {
      const resync = () => {
        for (const listener of reconnectListeners) {
          try {
            listener();
          } catch (error) {
            app.log.warn({ err: error }, 'a signal reconnection listener failed');
          }
        }
      };
      subscriber.subscribe(channel).then(resync, (error: unknown) => {
        app.log.warn({ err: error }, 'could not subscribe to signals again');
        resync();
      });
    });
    app.decorate('signals', {
      async publish(topic: string, payload?: unknown) {
        // While Redis is unreachable no other instance can hear it, but this one still must (a
        // session's end, a settings change): delivered here, at once, instead of through Redis.
        if (redis.status === 'ready') {
          try {
            await redis.publish(channel, JSON.stringify({ topic, payload: payload ?? null }));
            return;
          } catch {
            // As if it had been down before the attempt.
          }
        }
        hear(topic, payload ?? null);
      },
      subscribe,
      onReconnect,
    });
    app.addHook('onClose', async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    });
  },
  { name: 'signals', dependencies: ['cache'] },
);
