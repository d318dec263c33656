/**
 * Bounded concurrency in one process: the per-client request limit (`plugins/app/rate-limit.ts`)
 * and the image conversions (`lib/images.ts`) queue their work through these.
 */

export interface SemaphoreTicket {
  /** True once the holder may run; false when the queue was full or the ticket left while waiting. */
  ready: Promise<boolean>;
  /** Gives the slot (or the place in the queue) back; safe to call more than once. */
  leave(): void;
}

/** At most `concurrent` holders run; up to `queue` more wait their turn; any beyond are refused. */
export function createSemaphore(concurrent: number, queue: number) {
  let running = 0;
  const waiting: Array<(ok: boolean) => void> = [];
  return {
    /** Nobody runs or waits: the semaphore can be dropped. */
    get idle(): boolean {
      return running === 0 && waiting.length === 0;
    },
    enter(): SemaphoreTicket {
      let state: 'running' | 'waiting' | 'done';
      let wake: (ok: boolean) => void = () => {};
      let ready: Promise<boolean>;
      if (running < concurrent) {
        running++;
        state = 'running';
        ready = Promise.resolve(true);
      } else if (waiting.length >= queue) {
        state = 'done';
        ready = Promise.resolve(false);
      } else {
        state = 'waiting';
        ready = new Promise<boolean>((resolve) => {
          wake = (ok) => {
            state = ok ? 'running' : 'done';
            resolve(ok);
          };
        });
        waiting.push(wake);
      }
      return {
        ready,
        leave() {
          if (state === 'running') {
            state = 'done';
            // The slot passes straight to the next in line, or is freed.
            const next = waiting.shift();
            if (next) next(true);
            else running--;
          } else if (state === 'waiting') {
            waiting.splice(waiting.indexOf(wake), 1);
            wake(false);
          }
        },
      };
    },
  };
}

/** One semaphore per key, made on first use and dropped once nobody runs or waits in it. */
export function keyedSemaphores(concurrent: number, queue: number) {
  const semaphores = new Map<string, ReturnType<typeof createSemaphore>>();
  return {
    enter(key: string): SemaphoreTicket {
      let semaphore = semaphores.get(key);
      if (!semaphore) semaphores.set(key, (semaphore = createSemaphore(concurrent, queue)));
      const own = semaphore;
      const ticket = own.enter();
      return {
        ready: ticket.ready,
        leave() {
          ticket.leave();
          if (own.idle && semaphores.get(key) === own) semaphores.delete(key);
        },
      };
    },
    /** How many keys hold a semaphore now. */
    get size(): number {
      return semaphores.size;
    },
  };
}
