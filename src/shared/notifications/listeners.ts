import { isRejected, type TypedStartListening, type UnknownAction } from '@reduxjs/toolkit';
import { describeError, getErrorStatus } from '../api/errors';
import type { ApiMeta } from '../api/baseQuery';
import { textKey } from '../text/textRef';
import { notificationRaised } from './slice';

export const TOO_MANY_REQUESTS_TITLE = 'common:notification.tryLater';
export const ERROR_TITLE = 'common:notification.error';

interface ApiRejectedAction extends UnknownAction {
  payload?: unknown;
  error: { name?: string; message?: string };
  meta: {
    arg?: { endpointName?: string; type?: string };
    aborted?: boolean;
    condition?: boolean;
    rejectedWithValue?: boolean;
    baseQueryMeta?: ApiMeta;
  };
}

/**
 * A failed call of the one API that the user should hear about. Not: calls RTK skipped because the
 * same query was already running (`condition`), calls the app aborted, and failures the endpoint
 * declared quiet (`extraOptions.quiet`, marked by the base query).
 */
export function isAnnouncedApiFailure(action: unknown, reducerPath = 'api'): action is ApiRejectedAction {
  if (!isRejected(action) || !action.type.startsWith(`${reducerPath}/`)) return false;
  const meta = (action as ApiRejectedAction).meta;
  if (typeof meta.arg?.endpointName !== 'string' || meta.condition || meta.aborted) return false;
  return meta.baseQueryMeta?.quiet !== true;
}

/**
 * Spec §8: a failed API call becomes a red notification, titled "try later" for HTTP 429 and
 * "error encountered" otherwise, with the message from the response or error (see describeError).
 */
// `unknown` state: any app's typed startListening fits, and this listener reads no state.
export function addNotificationListeners(startListening: TypedStartListening<unknown>) {
  return startListening({
    predicate: (action) => isAnnouncedApiFailure(action),
    effect(action, { dispatch }) {
      const failure = action as ApiRejectedAction;
      const error = failure.meta.rejectedWithValue ? failure.payload : failure.error;
      dispatch(
        notificationRaised({
          variant: 'error',
          title: textKey(getErrorStatus(error) === 429 ? TOO_MANY_REQUESTS_TITLE : ERROR_TITLE),
          message: describeError(error),
        }),
      );
    },
  });
}
