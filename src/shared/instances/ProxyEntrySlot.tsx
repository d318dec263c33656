import { createContext, useContext, type ComponentType } from 'react';

/** What the instance panel knows of a proxied container. */
export interface ProxyEntryProps {
  /** `ws(s)://{host}/api/proxy/{id}` (or `/api/proxy/noinst/{id}`): what the local daemon connects to. */
  remote: string;
  /** A name for the mapping in the daemon's list (the challenge title). */
  label: string;
}

/**
 * The game feature's instance panel shows a proxied container's entry through this slot; the app
 * fills it with the wsrx feature's component (local address when the daemon maps it, else the URL
 * and where to get the daemon). Features cannot import each other, so the slot lives here.
 */
export const ProxyEntrySlot = createContext<ComponentType<ProxyEntryProps> | null>(null);

export function useProxyEntry(): ComponentType<ProxyEntryProps> | null {
  return useContext(ProxyEntrySlot);
}
