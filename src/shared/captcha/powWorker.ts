/**
 * The HashPow search off the main thread (reference §5.15: GZCTF solves in a Web Worker too), so the
 * page stays responsive while a higher difficulty takes seconds. Loaded only through solvePowTask.ts.
 */
import { solvePow } from './pow';

export interface PowWorkerRequest {
  challenge: string;
  difficulty: number;
}

export type PowWorkerReply = { answer: string } | { error: string };

// The project's TypeScript settings use the DOM library, not the WebWorker one; this is the part of
// the worker scope used here.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PowWorkerRequest>) => void) | null;
  postMessage(message: PowWorkerReply): void;
};

scope.onmessage = (event) => {
  const { challenge, difficulty } = event.data;
  solvePow(challenge, difficulty).then(
    (answer) => scope.postMessage({ answer }),
    (error: unknown) => scope.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
};
