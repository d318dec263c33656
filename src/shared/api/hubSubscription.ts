import { openHub, type HubPath } from './hub';

type Handlers = Record<string, (payload: unknown) => void>;

/** The part of RTK Query's cache-entry lifecycle a hub subscription waits on. */
interface CacheEntryLifecycle {
  cacheDataLoaded: Promise<unknown>;
  cacheEntryRemoved: Promise<unknown>;
}

/** The hubs that group their connections by game (`?game=<id>`); `/hub/admin` has one channel. */
type GameHubPath = Exclude<HubPath, '/hub/admin'>;

/**
 * An `onCacheEntryAdded` that keeps a cached query live over a SignalR hub (reference §6): the hub
 * opens once the entry has its first data, with `?game=<arg.id>` for the game hubs, and stops when
 * the entry is removed (its last subscriber gone). `handlers` map the hub's methods to updates of
 * the entry, through the lifecycle's `updateCachedData` and `dispatch`. The page's polling stays on,
 * so a hub that cannot be reached costs freshness of at most one polling interval.
 */
export function hubSubscription<Arg extends { id: number }, Lifecycle extends CacheEntryLifecycle>(
  path: GameHubPath,
  handlers: (arg: Arg, lifecycle: Lifecycle) => Handlers,
): (arg: Arg, lifecycle: Lifecycle) => Promise<void>;
export function hubSubscription<Arg, Lifecycle extends CacheEntryLifecycle>(
  path: '/hub/admin',
  handlers: (arg: Arg, lifecycle: Lifecycle) => Handlers,
): (arg: Arg, lifecycle: Lifecycle) => Promise<void>;
export function hubSubscription<Arg, Lifecycle extends CacheEntryLifecycle>(
  path: HubPath,
  handlers: (arg: Arg, lifecycle: Lifecycle) => Handlers,
) {
  return async (arg: Arg, lifecycle: Lifecycle) => {
    try {
      await lifecycle.cacheDataLoaded;
    } catch {
      return; // the entry went away (or failed) before its first data: nothing to keep live
    }
    // The overloads guarantee a game id for the game hubs.
    const query: Record<string, number> = path === '/hub/admin' ? {} : { game: (arg as { id: number }).id };
    const hub = openHub(path, query, handlers(arg, lifecycle));
    await lifecycle.cacheEntryRemoved;
    hub.stop();
  };
}
