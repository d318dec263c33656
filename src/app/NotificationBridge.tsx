import { lazy, Suspense, useCallback, useState } from 'react';
import { notificationShown, selectQueuedNotifications } from '@/shared/notifications/slice';
import { useAppDispatch, useAppSelector } from './hooks';

// notistack and the notification card load with the first notification, not with the page.
const NotificationCenter = lazy(
  () => import(/* webpackChunkName: "notifications" */ '@/shared/notifications/NotificationCenter'),
);

/** Connects the notifications slice to the notistack host, mounted once something is queued. */
export function NotificationBridge() {
  const notifications = useAppSelector(selectQueuedNotifications);
  const dispatch = useAppDispatch();
  const onShown = useCallback((id: string) => dispatch(notificationShown(id)), [dispatch]);
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationCenter notifications={notifications} onShown={onShown} />
    </Suspense>
  );
}
