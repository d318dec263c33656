import type { HubConnection } from '@microsoft/signalr';

/** The server's hubs (reference §6): players', monitors' and admins' live channels. */
export type HubPath = '/hub/user' | '/hub/monitor' | '/hub/admin';

export interface HubSubscription {
  /** Stops the connection; safe to call more than once and before it finished starting. */
  stop: () => void;
}

/**
 * Opens a SignalR JSON-protocol connection to a hub and routes its server → client methods to
 * `handlers` (method name → callback). `@microsoft/signalr` loads on first use, so pages that never
 * go live do not carry it. Reconnects automatically; a failure to connect is left to the pages'
 * 10 s polling, which keeps the data fresh without the hub.
 *
 * Endpoints use it through `hubSubscription` (./hubSubscription.ts), which opens it for a cache entry.
 */
export function openHub(
  path: HubPath,
  query: Record<string, string | number>,
  handlers: Record<string, (payload: unknown) => void>,
): HubSubscription {
  let connection: HubConnection | undefined;
  let stopped = false;
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const url = search.size > 0 ? `${path}?${search.toString()}` : path;

  void import(/* webpackChunkName: "signalr" */ '@microsoft/signalr')
    .then(async ({ HubConnectionBuilder, LogLevel }) => {
      if (stopped) return;
      connection = new HubConnectionBuilder()
        .withUrl(url)
        .withAutomaticReconnect()
        .configureLogging(LogLevel.None)
        .build();
      for (const [method, handler] of Object.entries(handlers)) connection.on(method, handler);
      await connection.start();
      if (stopped) await connection.stop();
    })
    .catch(() => undefined); // polling covers a hub that cannot be reached

  return {
    stop: () => {
      stopped = true;
      void connection?.stop().catch(() => undefined);
    },
  };
}
