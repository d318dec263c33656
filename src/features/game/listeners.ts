import type { AppStartListening } from '@/app/listenerMiddleware';
import type { Unsubscribe } from '@reduxjs/toolkit';
import { api, type AnswerResult } from './api';

type ApiSelectorState = Parameters<ReturnType<typeof api.endpoints.gameGetChallenge.select>>[0];

/** The server refuses a second container operation within 10 s of the last (reference §5.9). */
export const CONTAINER_OPERATION_INTERVAL_MS = 10_000;

/** How often a submitted flag's status is asked for until it is judged (reference §5.7, §7.3). */
export const STATUS_POLL_MS = 500;

/**
 * A checker that has not judged a flag in this long is stuck (it judges in seconds), and the poll
 * gives up rather than run for the rest of the session: the form keeps saying the flag is being
 * checked until it is opened again.
 */
const STATUS_POLL_LIMIT_MS = 5 * 60_000;

/** A checker's verdict, as opposed to "still waiting" (or nothing yet). */
const isVerdict = (status: AnswerResult | undefined): status is Exclude<AnswerResult, 'FlagSubmitted'> =>
  status !== undefined && status !== 'FlagSubmitted';

/**
 * Two side effects of a flag submission, kept out of the components so that they happen whether or
 * not the challenge dialog stays open:
 *
 * - the submission's status is polled every 500 ms until the checker's verdict (the flag form only
 *   reads it from the cache, so it is asked for once, not once per poller);
 * - a dynamic container holds the team's own flag; once that flag is accepted the instance has served
 *   its purpose, so the client destroys it instead of leaving it to expire and count against the
 *   team's container limit (GZCTF's challenge dialog does the same, reference §7.4). Static containers
 *   are shared in content, and the player may still want them, so they stay. A flag found within
 *   seconds of starting the instance waits out the server's throttle first, rather than meeting a 429.
 */
export function addGameListeners(startListening: AppStartListening): Unsubscribe {
  const startedAt = new Map<string, number>();
  // Submissions whose verdict has arrived. The form's own fetch and the poll below may both see it:
  // the poll stops on it, and the verdict is acted on once (a second destroy would only meet the
  // server's throttle). A few short strings per session.
  const judged = new Set<string>();
  const key = (id: number, challengeId: number) => `${id}:${challengeId}`;
  const submissionKey = ({ id, challengeId, submitId }: { id: number; challengeId: number; submitId: number }) =>
    `${key(id, challengeId)}:${submitId}`;
  const unsubscribes = [
    startListening({
      matcher: api.endpoints.gameCreateContainer.matchFulfilled,
      effect(action) {
        const { id, challengeId } = action.meta.arg.originalArgs;
        startedAt.set(key(id, challengeId), Date.now());
      },
    }),
    startListening({
      matcher: api.endpoints.gameSubmit.matchFulfilled,
      async effect(action, { dispatch, delay }) {
        const { id, challengeId } = action.meta.arg.originalArgs;
        const arg = { id, challengeId, submitId: action.payload };
        for (let waited = 0; waited < STATUS_POLL_LIMIT_MS; waited += STATUS_POLL_MS) {
          await delay(STATUS_POLL_MS);
          // The form's own fetch may have brought the verdict already.
          if (judged.has(submissionKey(arg))) return;
          const result = await dispatch(
            api.endpoints.gameStatus.initiate(arg, { subscribe: false, forceRefetch: true }),
          );
          // A refusal (the game ended, the team was suspended…) is shown by the form; asking again
          // every 500 ms would not change it.
          if (result.isError || isVerdict(result.data)) return;
        }
      },
    }),
    startListening({
      matcher: api.endpoints.gameStatus.matchFulfilled,
      async effect(action, { dispatch, getState, delay }) {
        /** The cached detail, or the server's when the dialog closed long enough ago to drop it. */
        async function challengeDetail(arg: { id: number; challengeId: number }) {
          // The root state's type knows the base API without this feature's endpoints, hence the cast.
          const state = getState() as unknown as ApiSelectorState;
          const cached = api.endpoints.gameGetChallenge.select(arg)(state).data;
          if (cached) return cached;
          return (await dispatch(api.endpoints.gameGetChallenge.initiate(arg, { subscribe: false }))).data;
        }

        if (!isVerdict(action.payload)) return;
        const { id, challengeId } = action.meta.arg.originalArgs;
        const submission = submissionKey(action.meta.arg.originalArgs);
        if (judged.has(submission)) return;
        judged.add(submission);
        if (action.payload !== 'Accepted') return;
        const challenge = await challengeDetail({ id, challengeId });
        if (challenge?.type !== 'DynamicContainer' || !challenge.context.instanceEntry) return;
        const started = startedAt.get(key(id, challengeId));
        startedAt.delete(key(id, challengeId));
        const wait = started === undefined ? 0 : started + CONTAINER_OPERATION_INTERVAL_MS + 500 - Date.now();
        if (wait > 0) await delay(wait);
        void dispatch(api.endpoints.gameDeleteContainer.initiate({ id, challengeId }));
      },
    }),
  ];
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
