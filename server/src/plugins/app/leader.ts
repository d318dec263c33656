import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tryHoldAdvisoryLock, type HeldLock } from '../../db/advisory-lock';

declare module 'fastify' {
  interface FastifyInstance {
    leader: Leadership;
  }
}

/** Any fixed number works: every instance of the platform just has to use the same one. */
const LEADER_LOCK_KEY = 0x475a4c44;
/**
 * How often an instance that does not lead tries to take over, and the leader checks that its lock's
 * connection still answers. A leader that exits frees the lock at once; one whose host or network
 * vanished, once PostgreSQL finds its session dead (about 25 s: db/advisory-lock.ts).
 */
const ELECTION_MS = 3_000;

interface Job {
  name: string;
  everyMs: number;
  task: () => Promise<unknown>;
  timer?: NodeJS.Timeout;
  running?: Promise<unknown>;
}

/**
 * The timed jobs (container sweeps and reconciliation, statistics, the judge's leftover pass) run on
 * one instance only: the one holding a PostgreSQL advisory lock on its own connection. The others
 * try to take the lock every few seconds, so when the leader stops (releasing it) or dies (its
 * connection ends and PostgreSQL releases it) another takes over. On PGlite the single process
 * always leads.
 */
export class Leadership {
  private lock: HeldLock | undefined;
  private readonly jobs: Job[] = [];
  private readonly onElection: Array<() => Promise<unknown>> = [];
  private timer: NodeJS.Timeout | undefined;
  private trying: Promise<void> | undefined;
  private verifying: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly tryLock: () => Promise<HeldLock | undefined>,
    private readonly log: { info(message: string): void; warn(object: object, message: string): void },
  ) {}

  get leading(): boolean {
    return this.lock !== undefined;
  }

  /** Runs `task` every `everyMs` while this instance leads; never two runs of it at once. */
  every(name: string, everyMs: number, task: () => Promise<unknown>): void {
    const job: Job = { name, everyMs, task };
    this.jobs.push(job);
    if (this.leading) this.schedule(job);
  }

  /**
   * Runs `task` each time this instance becomes the leader; if it already leads, at once, and the
   * returned promise waits for that run.
   */
  async whenElected(task: () => Promise<unknown>): Promise<void> {
    this.onElection.push(task);
    if (this.leading) await this.run('election task', task);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.elect();
    this.timer = setInterval(() => (this.lock ? this.verify(this.lock) : void this.elect()), ELECTION_MS);
    this.timer.unref();
  }

  /** Stops the jobs, waits for runs in flight and gives up the lock, so another instance takes over. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.trying;
    await this.resign();
  }

  private elect(): Promise<void> {
    if (this.leading || this.stopped) return Promise.resolve();
    this.trying ??= (async () => {
      try {
        const lock = await this.tryLock();
        if (!lock) return;
        if (this.stopped) {
          await lock.release();
          return;
        }
        this.lock = lock;
        this.log.info('this instance now runs the timed jobs');
        void lock.lost.then(() => {
          if (this.lock !== lock) return;
          this.log.warn({}, 'lost the leader lock (database connection ended); another instance may take over');
          void this.resign();
        });
        for (const task of this.onElection) this.run('election task', task);
        for (const job of this.jobs) this.schedule(job);
      } catch (error) {
        this.log.warn({ err: error }, 'could not try the leader lock');
      } finally {
        this.trying = undefined;
      }
    })();
    return this.trying;
  }

  /**
   * A leader cut off from the database (a partition; its host still running) cannot tell that
   * PostgreSQL will soon free its lock for another instance: a lock connection that stops answering
   * counts as lost (its `lost` handler resigns), so two instances never run the jobs for long.
   */
  private verify(lock: HeldLock): void {
    this.verifying ??= lock.verify().finally(() => (this.verifying = undefined));
  }

  private schedule(job: Job): void {
    clearInterval(job.timer);
    job.timer = setInterval(() => {
      job.running ??= this.run(job.name, job.task).finally(() => (job.running = undefined));
    }, job.everyMs);
    job.timer.unref();
  }

  private run(name: string, task: () => Promise<unknown>): Promise<unknown> {
    return task().catch((error: unknown) => this.log.warn({ err: error, job: name }, 'a timed job failed'));
  }

  private async resign(): Promise<void> {
    const lock = this.lock;
    this.lock = undefined;
    for (const job of this.jobs) clearInterval(job.timer);
    await Promise.allSettled(this.jobs.map((job) => job.running));
    await lock?.release();
  }
}

export default fp(
  async function leader(app: FastifyInstance) {
    const leadership = new Leadership(() => tryHoldAdvisoryLock(app.db, LEADER_LOCK_KEY), {
      info: (message) => app.log.info(message),
      warn: (object, message) => app.log.warn(object, message),
    });
    app.decorate('leader', leadership);
    app.addHook('onReady', async () => {
      await leadership.start();
    });
    // Before the database closes, and before the jobs' own plugins tear down what the jobs use.
    app.addHook('preClose', async () => {
      await leadership.stop();
    });
  },
  { name: 'leader', dependencies: ['db'] },
);
