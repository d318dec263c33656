import {
  isAnyOf,
  TaskAbortError,
  type Dispatch,
  type ListenerEffectAPI,
  type TypedStartListening,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { UNKNOWN_ERROR_KEY } from '@/shared/api/errors';
import { appStarted } from '@/shared/lifecycle';
import { ERROR_TITLE } from '@/shared/notifications/listeners';
import { notificationRaised, type AppNotification } from '@/shared/notifications/slice';
import { textKey } from '@/shared/text/textRef';
import {
  addToPool,
  checkConnection,
  checkVersion,
  DaemonError,
  listPool,
  register,
  removeFromPool,
  REQUIRED_VERSION,
} from './daemon';
import {
  connectFinished,
  connectRequested,
  connectStarted,
  daemonChecked,
  daemonNamed,
  mappingAdded,
  mappingFailed,
  mappingReleased,
  mappingRemoved,
  mappingRequested,
  mappingStarted,
  optionsChanged,
  poolSynced,
  selectDaemonState,
  selectInstanceByRemote,
  selectMappingStatus,
  selectPoolSynced,
  selectWsrxConnecting,
  selectWsrxOptions,
  type WsrxErrorKind,
  type WsrxRootState,
} from './slice';

/** Spec §9. */
export const POLL_INTERVAL_MS = 3000;
export const POOL_SYNC_EVERY_TICKS = 5;
export const CONNECT_DEBOUNCE_MS = 100;

export const OFFLINE_NOTIFICATION_ID = 'wsrx-daemon-offline';
export const VERSION_MISMATCH_NOTIFICATION_ID = 'wsrx-version-mismatch';
export const DAEMON_ERROR_NOTIFICATION_ID = 'wsrx-daemon-error';

type WsrxStartListening = TypedStartListening<WsrxRootState, Dispatch<UnknownAction>>;
type WsrxListenerApi = ListenerEffectAPI<WsrxRootState, Dispatch<UnknownAction>>;

/** Option changes come in bursts (typing, the title arriving): connect once they settle. */
const isDebouncedTrigger = isAnyOf(optionsChanged, daemonNamed);

/** Spec §8: the notification for each kind of daemon failure. */
function failureNotification(error: unknown): Omit<AppNotification, 'id'> & { id?: string } {
  const kind: WsrxErrorKind = error instanceof DaemonError ? error.kind : 'daemon_error';
  const detail = error instanceof DaemonError ? error.detail : undefined;
  switch (kind) {
    case 'daemon_unavailable':
      return {
        id: OFFLINE_NOTIFICATION_ID,
        variant: 'error',
        title: textKey('wsrx:notification.unavailable.title'),
        message: textKey('wsrx:notification.unavailable.message'),
      };
    case 'daemon_version_mismatch':
      return {
        id: VERSION_MISMATCH_NOTIFICATION_ID,
        variant: 'warning',
        title: textKey('wsrx:notification.versionMismatch.title'),
        message: textKey('wsrx:notification.versionMismatch.message', { required: REQUIRED_VERSION }),
      };
    case 'daemon_error':
      return {
        id: DAEMON_ERROR_NOTIFICATION_ID,
        variant: 'error',
        title: textKey('wsrx:notification.daemonError.title'),
        // The daemon's own words when it gave any (shown as text, never as markup).
        message: detail ? { text: detail } : textKey('wsrx:notification.daemonError.message'),
      };
    default:
      // scope_unverified, missing_scope: nothing the user can act on beyond what the entry shows.
      return { variant: 'error', title: textKey(ERROR_TITLE), message: textKey(UNKNOWN_ERROR_KEY) };
  }
}

const errorKind = (error: unknown): WsrxErrorKind => (error instanceof DaemonError ? error.kind : 'daemon_error');

function rethrowCancellation(error: unknown) {
  if (error instanceof TaskAbortError) throw error;
}

/** Reads the pool into the state; a failure waits for the next sync (the tick notices a dead daemon). */
async function syncPool(base: string, api: WsrxListenerApi) {
  try {
    api.dispatch(poolSynced(await api.pause(listPool(base, api.signal))));
  } catch (error) {
    rethrowCancellation(error);
  }
}

/**
 * Reference §7.5 `connect()`: the version, then how the daemon sees this site; a site it does not know
 * asks to be listed and looks again. Resolves with the daemon address when polling should follow.
 */
async function connect(api: WsrxListenerApi, silent: boolean): Promise<string | null> {
  const { api: base, name } = selectWsrxOptions(api.getState());
  api.dispatch(connectStarted());
  try {
    await api.pause(checkVersion(base, api.signal));
    let state = await api.pause(checkConnection(base, api.signal));
    if (state === 'Invalid') {
      await api.pause(register(base, name, api.signal));
      state = await api.pause(checkConnection(base, api.signal));
    }
    // Listed for approval but still unknown: the daemon is not doing what it said.
    if (state === 'Invalid') throw new DaemonError('daemon_error');
    api.dispatch(daemonChecked(state));
    if (state === 'Usable') await syncPool(base, api);
    api.dispatch(connectFinished({ error: null }));
    return base;
  } catch (error) {
    rethrowCancellation(error);
    api.dispatch(daemonChecked('Invalid'));
    api.dispatch(connectFinished({ error: errorKind(error) }));
    if (!(silent && errorKind(error) === 'daemon_unavailable')) {
      api.dispatch(notificationRaised(failureNotification(error)));
    }
    return null;
  }
}

/**
 * Reference §7.5 tick: every 3 s ask again; stop once the daemon is Invalid (a connect starts it
 * again). While usable, read the pool when it becomes usable and on every 5th tick after that.
 */
async function poll(base: string, api: WsrxListenerApi) {
  let usableTicks = 0;
  for (;;) {
    await api.delay(POLL_INTERVAL_MS);
    const before = selectDaemonState(api.getState());
    const state = await api.pause(checkConnection(base, api.signal));
    api.dispatch(daemonChecked(state));
    if (state === 'Invalid') return;
    if (state !== 'Usable') continue;
    if (before !== 'Usable') {
      // Just approved (or back): the pool is unknown until read.
      usableTicks = 0;
      await syncPool(base, api);
      continue;
    }
    usableTicks += 1;
    if (usableTicks % POOL_SYNC_EVERY_TICKS === 0) await syncPool(base, api);
  }
}

/** The wsrx state machine (spec §4): connecting, polling, the pool and the notifications. */
export function addWsrxListeners(startListening: WsrxStartListening) {
  /** Whether the latest connect was one nobody asked for (start-up): then an absent daemon is no news. */
  let quiet = true;
  const unsubscribes = [
    // One connection at a time: a newer trigger cancels the older attempt and its polling.
    startListening({
      predicate: (action, current, previous) => {
        if (appStarted.match(action) || connectRequested.match(action)) return true;
        if (selectWsrxOptions(current) === selectWsrxOptions(previous)) return false;
        if (optionsChanged.match(action)) return true;
        // The name only matters when the site asks to be listed, which happens inside a connect; a
        // daemon already answering (or absent) sees nothing new, so only a running attempt restarts.
        return daemonNamed.match(action) && selectWsrxConnecting(previous);
      },
      async effect(action, api) {
        api.cancelActiveListeners();
        // Spec §8: the start-up connect is quiet about a daemon that is not running; a renamed
        // attempt keeps the manner of the one it replaces.
        if (!daemonNamed.match(action)) quiet = appStarted.match(action);
        const silent = quiet;
        if (isDebouncedTrigger(action)) await api.delay(CONNECT_DEBOUNCE_MS);
        const base = await connect(api, silent);
        if (base !== null) await poll(base, api);
      },
    }),

    // Spec §4: only a fall from Pending or Usable is news; a daemon that never answered is not.
    startListening({
      predicate: (_action, current, previous) =>
        selectDaemonState(previous) !== 'Invalid' && selectDaemonState(current) === 'Invalid',
      effect(_action, { dispatch }) {
        dispatch(
          notificationRaised({
            id: OFFLINE_NOTIFICATION_ID,
            variant: 'error',
            title: textKey('wsrx:notification.offline.title'),
            message: textKey('wsrx:notification.offline.message'),
          }),
        );
      },
    }),

    startListening({
      actionCreator: mappingRequested,
      async effect({ payload: { remote, label } }, api) {
        const state = api.getState();
        if (selectDaemonState(state) !== 'Usable') return;
        // Spec §5: a remote already in the pool is reused, without a call; one being added is awaited.
        if (selectInstanceByRemote(state, remote) || selectMappingStatus(state, remote) === 'adding') return;
        const { api: base, allowLan } = selectWsrxOptions(state);
        api.dispatch(mappingStarted(remote));
        try {
          if (!selectPoolSynced(state)) {
            // Not read since the daemon became usable: it may hold this remote from an earlier visit.
            api.dispatch(poolSynced(await api.pause(listPool(base, api.signal))));
            const known = selectInstanceByRemote(api.getState(), remote);
            if (known) {
              api.dispatch(mappingAdded({ remote, instance: known }));
              return;
            }
          }
          const instance = await api.pause(addToPool(base, { label, remote, allowLan }, api.signal));
          api.dispatch(mappingAdded({ remote, instance }));
        } catch (error) {
          rethrowCancellation(error);
          api.dispatch(mappingFailed({ remote, error: errorKind(error) }));
          api.dispatch(notificationRaised(failureNotification(error)));
        }
      },
    }),

    startListening({
      actionCreator: mappingReleased,
      async effect({ payload: { local } }, api) {
        if (selectDaemonState(api.getState()) !== 'Usable') return;
        try {
          await api.pause(removeFromPool(selectWsrxOptions(api.getState()).api, local, api.signal));
          api.dispatch(mappingRemoved(local));
        } catch (error) {
          rethrowCancellation(error);
          api.dispatch(notificationRaised(failureNotification(error)));
        }
      },
    }),
  ];
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
