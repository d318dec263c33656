import { useState } from 'react';
import { useGameStatusQuery, useGameSubmitMutation, type AnswerResult } from '../api';

export interface FlagSubmission {
  submit: (flag: string) => Promise<void>;
  /** The latest submission's status: `FlagSubmitted` while it waits for the checker. */
  status: AnswerResult | undefined;
  /** True from the click until the verdict. */
  busy: boolean;
  /** A refused submission or status call (not started, ended, rate limited…). */
  error: unknown;
}

/**
 * Submits a flag (`POST …/challenges/{id}`: the server answers a submission id at once and judges
 * in a queue, reference §5.7), then follows its status until it is judged. The status is asked for
 * once here; the game listeners poll it every 500 ms into the same cache entry (listeners.ts), so the
 * verdict's consequences (the container's destruction) do not depend on this form staying open.
 */
export function useFlagSubmission(gameId: number, challengeId: number): FlagSubmission {
  const [submitId, setSubmitId] = useState<number | null>(null);
  const [verdict, setVerdict] = useState<AnswerResult | undefined>(undefined);
  const [submitFlag, submitted] = useGameSubmitMutation();
  const polled = useGameStatusQuery(
    { id: gameId, challengeId, submitId: submitId ?? 0 },
    // Skipped once judged: the verdict is kept below, and the listener's poll has stopped.
    { skip: submitId === null || verdict !== undefined },
  );
  const latest = polled.currentData;
  // Kept from the render that saw it: the skipped query forgets its data.
  if (submitId !== null && verdict === undefined && latest && latest !== 'FlagSubmitted') setVerdict(latest);

  const pending = submitId !== null && verdict === undefined;
  return {
    async submit(flag: string) {
      setSubmitId(null);
      setVerdict(undefined);
      try {
        setSubmitId(await submitFlag({ id: gameId, challengeId, flagSubmitModel: { flag } }).unwrap());
      } catch {
        // Shown from the mutation's error.
      }
    },
    status: verdict ?? (pending ? 'FlagSubmitted' : undefined),
    busy: submitted.isLoading || (pending && !polled.error),
    error: submitted.error ?? (pending ? polled.error : undefined),
  };
}
