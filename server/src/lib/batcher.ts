/**
 * Groups concurrent calls into one batch call, so N requests arriving together cost one database
 * round trip instead of N. A batch starts at once when fewer than `maxInFlight` are running (no
 * added latency when idle); otherwise calls wait for a running batch to finish and then go together.
 * Each call still gets its own result, read at the time of its batch (nothing is cached).
 *
 * When a batch of several fails, its calls are retried one by one, so one bad input (a constraint
 * violation, say) fails only its own caller.
 */
export class Batcher<I, O> {
  private pending: Array<{ input: I; resolve: (output: O) => void; reject: (error: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly runBatch: (inputs: I[]) => Promise<O[]>,
    private readonly options: { maxBatch: number; maxInFlight: number },
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
