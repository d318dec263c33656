/** The parts of `window.location` a proxy URL depends on. */
export interface PageLocation {
  protocol: string;
  host: string;
}

/**
 * The WebSocket address of the platform proxy for a container (spec §2): `ws(s)://{host}/api/proxy/{id}`,
 * or `/api/proxy/noinst/{id}` for the no-instance variant (a test container in the admin pages).
 * Pages served over https get `wss`, plain http pages `ws`.
 */
export function proxyWebSocketUrl(
  id: string,
  { noInstance = false, location = window.location }: { noInstance?: boolean; location?: PageLocation } = {},
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const path = noInstance ? 'api/proxy/noinst' : 'api/proxy';
  return `${scheme}://${location.host}/${path}/${encodeURIComponent(id)}`;
}

/**
 * GZCTF's rule (reference §7.5): an entry goes through the platform proxy only when the platform maps
 * ports that way and the entry is a container GUID (36 characters, no port); anything else is a
 * reachable `host:port`.
 */
export function isProxiedEntry(entry: string, portMapping: 'Default' | 'PlatformProxy'): boolean {
  return portMapping === 'PlatformProxy' && entry.length === 36 && !entry.includes(':');
}
