interface BatcherOptions {
  /** Most calls one batch takes. */
  maxBatch: number;
  /** Most batches running at once: on PGlite (one connection) one, as more only queue there. */
  maxInFlight: number;
}

/**
 * Groups concurrent calls into one batch call, so N requests arriving together cost one database
 * round trip instead of N. A batch starts at once when fewer than `maxInFlight` are running (no
 * added latency when idle); otherwise calls wait for a running batch to finish and then go together.
 * Each call still gets its own result, read at the time of its batch (nothing is cached).
 *
 * When a batch of several fails, its calls are retried one by one, so one bad input (a constraint
 * violation, say) fails only its own caller.
 */
class Batcher<I, O> {
  private pending: Array<{ input: I; resolve: (output: O) => void; reject: (error: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly runBatch: (inputs: I[]) => Promise<O[]>,
    private readonly options: BatcherOptions,
  ) {}

  run(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.pending.length === 0) return;
    this.scheduled = true;
    // setImmediate, not a microtask: requests parsed in the same I/O turn join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.pending.length > 0) {
      const batch = this.pending.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.settle(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  private async settle(batch: typeof this.pending): Promise<void> {
    try {
      const outputs = await this.runBatch(batch.map((call) => call.input));
      batch.forEach((call, index) => call.resolve(outputs[index]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const call of batch) {
        await this.runBatch([call.input]).then(
          ([output]) => call.resolve(output!),
          (single: unknown) => call.reject(single),
        );
      }
    }
  }
}

/**
 * Every batcher in the server, one per (owner, name): the owner is what the batches run against (a
 * database handle), so two apps in one process (tests, the bench) never share a batch, and a closed
 * database's batchers go with it (a WeakMap). The batched paths are the submission intake
 * (`modules/submissions/intake.repository.ts`) and the session lookup (`plugins/app/auth.ts`); their options are set
 * where they are made.
 */
const batchers = new WeakMap<object, Map<string, Batcher<never, unknown>>>();

/** The batcher called `name` of `owner`, made on first use with `runBatch` and `options`. */
export function batcherOf<I, O>(
  owner: object,
  name: string,
  runBatch: (inputs: I[]) => Promise<O[]>,
  options: BatcherOptions,
): Batcher<I, O> {
  let named = batchers.get(owner);
  if (!named) batchers.set(owner, (named = new Map()));
  let batcher = named.get(name) as Batcher<I, O> | undefined;
  if (!batcher) {
    batcher = new Batcher(runBatch, options);
    named.set(name, batcher as unknown as Batcher<never, unknown>);
  }
  return batcher;
}
