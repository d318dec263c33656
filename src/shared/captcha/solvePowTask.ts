import { solvePow } from './pow';
import type { PowWorkerReply, PowWorkerRequest } from './powWorker';

export interface PowTask {
  /** The answer (16 hex digits). Rejects when the search fails or is cancelled. */
  answer: Promise<string>;
  /** Stops the search (the page was left); `answer` then rejects. */
  cancel(): void;
}

const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function solveOnMainThread(challenge: string, difficulty: number): PowTask {
  let cancelled = false;
  const answer = solvePow(challenge, difficulty, async () => {
    if (cancelled) throw new Error('cancelled');
    // Between slices, so typing and rendering go on while it searches.
    await yieldToBrowser();
  });
  return {
    answer,
    cancel() {
      cancelled = true;
    },
  };
}

/**
 * Solves a HashPow challenge in a Web Worker; where workers are missing (old browsers, Jest's jsdom)
 * it searches on the main thread in slices instead.
 */
export function solvePowTask(challenge: string, difficulty: number): PowTask {
  if (typeof Worker === 'undefined') return solveOnMainThread(challenge, difficulty);
  const worker = new Worker(/* webpackChunkName: "pow-worker" */ new URL('./powWorker.ts', import.meta.url));
  let settle: ((reply: PowWorkerReply) => void) | undefined;
  const answer = new Promise<string>((resolve, reject) => {
    settle = (reply) => {
      worker.terminate();
      if ('answer' in reply) resolve(reply.answer);
      else reject(new Error(reply.error));
    };
    worker.onmessage = (event: MessageEvent<PowWorkerReply>) => settle?.(event.data);
    worker.onerror = (event) => settle?.({ error: event.message || 'worker failed' });
  });
  worker.postMessage({ challenge, difficulty } satisfies PowWorkerRequest);
  return { answer, cancel: () => settle?.({ error: 'cancelled' }) };
}
