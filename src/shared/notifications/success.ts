import { textKey } from '../text/textRef';
import { notificationRaised } from './slice';

type Values = Record<string, string | number>;
type Dispatch = (action: ReturnType<typeof notificationRaised>) => unknown;

/** The i18n keys of one success notification. */
export interface SuccessKeys {
  title: string;
  message: string;
  values?: Values;
}

/** How a feature names its success texts from a short key (`saved`, `deleted`, …). */
export type SuccessTexts = (key: string, values?: Values) => SuccessKeys;

/** `<namespace>:notification.<key>.title` and `.message`: each success has its own title. */
export const titledTexts =
  (namespace: string): SuccessTexts =>
  (key, values) => ({
    title: `${namespace}:notification.${key}.title`,
    message: `${namespace}:notification.${key}.message`,
    values,
  });

/** One title for every success (`<namespace>:notification.done`), the message `<namespace>:notification.<key>`. */
export const doneTexts =
  (namespace: string): SuccessTexts =>
  (key, values) => ({
    title: `${namespace}:notification.done`,
    message: `${namespace}:notification.${key}`,
    values,
  });

/**
 * The green notification of a mutation that succeeded (style-anchors §9.4, rule 4). Failures are not
 * its business: the notification listener announces them (src/shared/notifications/listeners.ts).
 *
 * - `raise(dispatch, key, values?)` raises it now (after a lifecycle has awaited the call itself);
 * - `whenDone(dispatch, queryFulfilled, key, values?)` raises it once the call succeeded;
 * - `on(key, values?)` is a whole `onQueryStarted` for an endpoint that only announces its success;
 *   `key` and `values` may be read from the call's argument.
 */
export function successNotifier(texts: SuccessTexts) {
  const raise = (dispatch: Dispatch, key: string, values?: Values) => {
    const { title, message, values: messageValues } = texts(key, values);
    dispatch(
      notificationRaised({ variant: 'success', title: textKey(title), message: textKey(message, messageValues) }),
    );
  };
  const whenDone = async (dispatch: Dispatch, queryFulfilled: Promise<unknown>, key: string, values?: Values) => {
    try {
      await queryFulfilled;
    } catch {
      return;
    }
    raise(dispatch, key, values);
  };
  const on =
    <Arg>(key: string | ((arg: Arg) => string), values?: (arg: Arg) => Values) =>
    (arg: Arg, { dispatch, queryFulfilled }: { dispatch: Dispatch; queryFulfilled: Promise<unknown> }) =>
      whenDone(dispatch, queryFulfilled, typeof key === 'function' ? key(arg) : key, values?.(arg));
  return { raise, whenDone, on };
}
