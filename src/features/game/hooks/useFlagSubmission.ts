import { useState } from 'react';
import { useGameStatusQuery, useGameSubmitMutation, type AnswerResult } from '../api';

/** How often a submitted flag's status is asked for until it is judged. */
export const STATUS_POLL_MS = 1000;

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
 * in a queue, reference §5.7), then asks for its status every second until it is judged.
 */
export function useFlagSubmission(gameId: number, challengeId: number): FlagSubmission {
  const [submitId, setSubmitId] = useState<number | null>(null);
  const [verdict, setVerdict] = useState<AnswerResult | undefined>(undefined);
  const [submitFlag, submitted] = useGameSubmitMutation();
  const polled = useGameStatusQuery(
    { id: gameId, challengeId, submitId: submitId ?? 0 },
    // The verdict ends the polling (the query is skipped from then on).
    { skip: submitId === null || verdict !== undefined, pollingInterval: STATUS_POLL_MS },
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
