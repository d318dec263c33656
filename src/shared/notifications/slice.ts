import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { TextRef } from '../text/textRef';

export type NotificationVariant = 'error' | 'warning' | 'success' | 'info';

/** A notification waiting to be shown; texts are references so listeners need no `t`. */
export interface AppNotification {
  id: string;
  variant: NotificationVariant;
  title: TextRef;
  message: TextRef;
}

export interface NotificationsState {
  queue: AppNotification[];
}

/** More than this many waiting at once means something loops; the oldest are dropped. */
export const MAX_QUEUED_NOTIFICATIONS = 20;

const initialState: NotificationsState = { queue: [] };

/**
 * Notifications raised by listeners and endpoint lifecycles (never by components). The host in the
 * app hands each one to notistack and reports it shown. Client-only, never persisted.
 */
export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState,
  reducers: {
    notificationRaised: {
      reducer(state, action: PayloadAction<AppNotification>) {
        state.queue.push(action.payload);
        if (state.queue.length > MAX_QUEUED_NOTIFICATIONS) state.queue.shift();
      },
      /** `id` doubles as notistack's key: raising the same id again while it shows does nothing. */
      prepare(notification: Omit<AppNotification, 'id'> & { id?: string }) {
        return { payload: { ...notification, id: notification.id ?? nanoid() } };
      },
    },
    notificationShown(state, action: PayloadAction<string>) {
      state.queue = state.queue.filter((notification) => notification.id !== action.payload);
    },
  },
  selectors: {
    selectQueuedNotifications: (state) => state.queue,
  },
});

export const { notificationRaised, notificationShown } = notificationsSlice.actions;
export const { selectQueuedNotifications } = notificationsSlice.selectors;
