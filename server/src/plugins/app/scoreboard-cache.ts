import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sharedBuildLock } from './build-lock';
import { editEvents } from '../../modules/edit/edit.events';
import { gameBus } from '../../modules/game/game.events';
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
  const onSolve = ({ gameId }: { gameId: number }) => scoreboards.refresh(gameId);
  const onEdit = ({ gameId }: { gameId: number }) => scoreboards.refresh(gameId, true);
  editEvents.on('scoreboardChanged', onEdit);
  gameBus.on('scoreboardChanged', onSolve);
  app.addHook('onClose', async () => {
    editEvents.off('scoreboardChanged', onEdit);
    gameBus.off('scoreboardChanged', onSolve);
    await scoreboards.idle();
  });
}

export default fp(scoreboardCache, { name: 'scoreboard-cache', dependencies: ['cache', 'signals'] });
