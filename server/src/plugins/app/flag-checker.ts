import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FlagChecker, unjudgedIds } from '../../modules/game/checker';

declare module 'fastify' {
  interface FastifyInstance {
    flagChecker: FlagChecker;
  }
}

/**
 * Starts the judge queue once the app is ready (re-queuing every submission still FlagSubmitted, so
 * a restart judges everything acknowledged before it) and drains the in-flight judgements on close.
 * One worker on either engine, judging a batch of waiting submissions per transaction: batches
 * touching one challenge take turns on its row lock anyway, and a second worker only split the
 * batches and doubled the fixed cost per transaction (GZCTF picks 1/2/4 workers by CPU count, one
 * submission each).
 */
async function flagChecker(app: FastifyInstance) {
  const workers = 1;
  const checker = new FlagChecker(app.db, workers, (error, id) =>
    app.log.error({ err: error, submission: id }, 'flag check failed; the submission stays queued for the next start'),
  );
  app.decorate('flagChecker', checker);
  app.addHook('onReady', async () => {
    await checker.start(await unjudgedIds(app.db));
  });
  app.addHook('onClose', async () => {
    await checker.stop();
  });
}

export default fp(flagChecker, { name: 'flag-checker', dependencies: ['db'] });
