import type { Unsubscribe } from '@reduxjs/toolkit';
import { addGameListeners } from '@/features/game/listeners';
import { addInfoListeners } from '@/features/info/listeners';
import { addWsrxListeners } from '@/features/wsrx/listeners';
import { addSessionListeners } from '@/shared/api/session';
import { addNotificationListeners } from '@/shared/notifications/listeners';
import type { AppStartListening } from './listenerMiddleware';
import { addWsrxNameListener } from './wsrxName';

/**
 * Every feature's side effects, registered once. A feature with listeners exports
 * `addXListeners(startListening)` from its listeners.ts and gets one line here.
 */
const LISTENERS: Array<(startListening: AppStartListening) => Unsubscribe> = [
  addNotificationListeners,
  addSessionListeners,
  addInfoListeners,
  addGameListeners,
  addWsrxListeners,
  addWsrxNameListener,
];

export function addAppListeners(startListening: AppStartListening): Unsubscribe {
  const unsubscribes = LISTENERS.map((add) => add(startListening));
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
