import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FlagChecker, unjudgedIds } from '../../modules/submissions';

declare module 'fastify' {
  interface FastifyInstance {
    flagChecker: FlagChecker;
  }
}

/** How often the leader looks for acknowledged submissions nobody is judging (an instance crashed). */
const LEFTOVER_PASS_MS = 5_000;
/** A submission this old and still FlagSubmitted is a leftover: younger ones are in some queue. */
const LEFTOVER_AGE_MS = 10_000;

/**
 * Starts the judge queue once the app is ready (re-queuing every submission still FlagSubmitted, so
 * a restart judges everything acknowledged before it) and drains the in-flight judgements on close.
 * One worker on either engine, judging a batch of waiting submissions per transaction: batches
 * touching one challenge take turns on its row lock anyway, and a second worker only split the
 * batches and doubled the fixed cost per transaction (GZCTF picks 1/2/4 workers by CPU count, one
 * submission each).
 *
 * With several instances each judges what it acknowledged. Judging locks each submission row and
 * skips it unless still FlagSubmitted, and decides bloods under the challenge's row lock, so a
 * submission queued on two instances is judged once with the right blood. What a stopping instance
 * still had queued is announced, and the others judge it at once; what a crashed one left behind
 * the leader's leftover pass finds.
 */
async function flagChecker(app: FastifyInstance) {
  const workers = 1;
  const checker = new FlagChecker(app.db, workers, (error, id) =>
    app.log.error({ err: error, submission: id }, 'flag check failed; the submission stays queued for the next start'),
  );
  app.decorate('flagChecker', checker);
  // A burst of solves has been judged: the board need not wait out the rest of its pause.
  checker.events.on('drained', () => app.scoreboards.settle());
  checker.events.on('resumed', () => app.scoreboards.resumed());
  let closing = false;
  const requeue = (ids: number[]) => {
    // A closing instance hears its own hand-over too: those are for the others.
    if (closing) return;
    for (const id of ids) checker.enqueue(id);
  };
  app.signals.subscribe('judge', (payload) => {
    if (Array.isArray(payload)) requeue(payload.filter((id): id is number => Number.isInteger(id)));
  });
  app.leader.every('judge leftovers', LEFTOVER_PASS_MS, async () =>
    requeue(await unjudgedIds(app.db, undefined, new Date(Date.now() - LEFTOVER_AGE_MS))),
  );
  app.addHook('onReady', async () => {
    await checker.start(await unjudgedIds(app.db));
  });
  app.addHook('onClose', async () => {
    closing = true;
    const left = await checker.stop();
    if (left.length === 0) return;
    app.log.info({ submissions: left.length }, 'handing queued submissions over to the other instances');
    await app.signals
      .publish('judge', left)
      .catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not hand queued submissions over; the leftover pass will find them'),
      );
  });
}

export default fp(flagChecker, { name: 'flag-checker', dependencies: ['db', 'signals', 'leader', 'scoreboard-cache'] });
