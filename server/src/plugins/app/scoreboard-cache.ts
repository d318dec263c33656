import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sharedBuildLock } from './build-lock';
import { bus, type AppEvents } from '../../lib/bus';
import { ScoreboardCache } from '../../modules/scoreboard';

declare module 'fastify' {
  interface FastifyInstance {
    scoreboards: ScoreboardCache;
  }
}

async function scoreboardCache(app: FastifyInstance) {
  // Several instances (Redis): one builds, and the others drop their copies when it is done.
  const lock = sharedBuildLock(app, (gameId) => scoreboards.forget(gameId));
  const scoreboards = new ScoreboardCache(
    app.db,
    app.cache,
    (error) => app.log.error({ err: error }, 'scoreboard generation failed'),
    undefined,
    lock,
  );
  app.decorate('scoreboards', scoreboards);
  const onChange = ({ gameId, cause }: AppEvents['scoreboardChanged']) => scoreboards.refresh(gameId, cause === 'edit');
  bus.on('scoreboardChanged', onChange);
  app.addHook('onClose', async () => {
    bus.off('scoreboardChanged', onChange);
    scoreboards.close();
    await scoreboards.idle();
  });
}

export default fp(scoreboardCache, { name: 'scoreboard-cache', dependencies: ['cache', 'signals'] });
